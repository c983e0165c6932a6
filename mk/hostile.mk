# Hostile inputs (issue 37): the heavy cases that the area suites leave out. The shared
# connection-file reader fuzzed with libFuzzer under AddressSanitizer and
# UndefinedBehaviorSanitizer and compared with a reference reader on 20,000 damaged files;
# 5,000 damaged wire messages and 30 cells that hurt the cell host against the installed
# kernel, its state checked every 50 messages and after every cell; 50 MB messages and the
# value budget. Prints the counts of cases, deaths, hangs, wrong answers and lost variables
# (all 0 but the first); about 4 minutes.

.PHONY: test-hostile

test-hostile: kernelspec ## fuzzing and fault campaign: prints cases, deaths, hangs, wrong answers, lost variables
	$(PYTHON) scripts/hostile/run_hostile.py

TEST_TARGETS += test-hostile
