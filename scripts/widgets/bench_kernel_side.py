"""Where the time of one notebook-04 explorer update goes, measured through jupyter_client
(no browser): run every code cell of notebook 04, then
- a threshold update sent on shell until its idle (alternating 8 and 48: the model input changes),
- an update of a slider with no observer (the comm round trip and the host's snapshot),
- the explorer's closure alone, called from a cell.
Writes results/widget-kernel-latency.json (with the load average) when given --out.

    PYTHONPATH=python .venv/bin/python scripts/widgets/bench_kernel_side.py --out results
"""
import argparse
import json
import os
import statistics
import time
from pathlib import Path

from jupyter_client.manager import start_new_kernel

from benchbook_kit import ROOT
from benchbook_kit.kernel import results, run_cell

NOTEBOOK = ROOT / "notebooks" / "04-preprocessing-for-photos.ipynb"


def slider_id(outputs, label=None):
    for m in outputs:
        state = m["content"].get("data", {}).get("state", {}) if m["msg_type"] == "comm_open" else {}
        if state.get("_model_name") == "IntSliderModel" and (label is None or state.get("description") == label):
            return m["content"]["comm_id"]
    return None


def round_trips(kc, comm_id, values):
    times = []
    for value in values:
        msg = kc.session.msg("comm_msg", {"comm_id": comm_id, "data": {
            "method": "update", "state": {"value": value}, "buffer_paths": []}})
        started = time.perf_counter()
        kc.shell_channel.send(msg)
        while True:
            m = kc.get_iopub_msg(timeout=30)
            if (m["parent_header"].get("msg_id") == msg["header"]["msg_id"] and m["msg_type"] == "status"
                    and m["content"]["execution_state"] == "idle"):
                break
        times.append((time.perf_counter() - started) * 1000)
    return times


def summary(times):
    return {"median_ms": round(statistics.median(times), 1), "min_ms": round(min(times), 1),
            "max_ms": round(max(times), 1), "runs": len(times)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", help="directory for widget-kernel-latency.json")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    nb = json.loads(NOTEBOOK.read_text())
    km, kc = start_new_kernel(kernel_name="swift", startup_timeout=60, cwd=str(NOTEBOOK.parent))
    try:
        threshold = None
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                reply, outputs = run_cell(kc, "".join(cell["source"]), timeout=600)
                assert reply["status"] == "ok", reply
                threshold = threshold or slider_id(outputs, "Crop threshold")
        explorer = round_trips(kc, threshold, [8 if i % 2 == 0 else 48 for i in range(args.runs)])
        _, outputs = run_cell(kc, "let probe = IntSlider()")
        bare = round_trips(kc, slider_id(outputs), range(1, args.runs + 1))
        _, outputs = run_cell(kc, "import Dispatch\nvar bodyTimes: [Double] = []\n"
                                  f"for _ in 0..<{args.runs} {{ let t = DispatchTime.now(); explorer.update(); "
                                  "bodyTimes.append(Double(DispatchTime.now().uptimeNanoseconds - t.uptimeNanoseconds) / 1e6) }\n"
                                  "bodyTimes")
        body = [float(v) for v in results(outputs)[0].strip("[]").split(",")]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    record = {
        "what": "notebook 04 explorer through jupyter_client: shell send to idle of one widget update",
        "explorer_threshold_update": summary(explorer),
        "slider_update_without_observer": summary(bare),
        "explorer_closure_alone": summary(body),
        "load_average": os.getloadavg(),
    }
    print(json.dumps(record, indent=1))
    if args.out:
        (Path(args.out) / "widget-kernel-latency.json").write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
