#include "CHostSupport.h"

#include <signal.h>
#include <sys/prctl.h>

int bb_host_die_with_parent(void) {
    return prctl(PR_SET_PDEATHSIG, SIGKILL);
}
