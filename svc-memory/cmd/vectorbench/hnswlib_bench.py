"""The anchor of vectorbench: hnswlib (Debian's python3-hnswlib) on the
same vectors, queries and ground truth the Go index was measured on.

vectorbench writes the inputs (unit vectors, so inner product is cosine)
and runs this script; it prints one JSON object per line: the build, then
one line per efSearch value. Queries run one at a time on one thread, each
timed on its own, as the Go side does.
"""
import argparse
import json
import sys
import time

import hnswlib
import numpy as np


def rss_bytes():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def version():
    try:
        from importlib.metadata import version as v
        return v("hnswlib")
    except Exception:
        return "?"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", required=True)
    p.add_argument("--queries", required=True)
    p.add_argument("--truth", required=True)
    p.add_argument("--dim", type=int, required=True)
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--m", type=int, required=True)
    p.add_argument("--efc", type=int, required=True)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--batch", type=int, default=10000)
    p.add_argument("--efs", required=True)
    a = p.parse_args()

    data = np.fromfile(a.data, dtype=np.float32).reshape(-1, a.dim)
    queries = np.fromfile(a.queries, dtype=np.float32).reshape(-1, a.dim)
    truth = np.fromfile(a.truth, dtype=np.int32).reshape(len(queries), a.k)
    n = len(data)

    before = rss_bytes()
    index = hnswlib.Index(space="ip", dim=a.dim)
    index.init_index(max_elements=n, ef_construction=a.efc, M=a.m, random_seed=1)
    cpu0, t0 = time.process_time(), time.perf_counter()
    for start in range(0, n, a.batch):
        stop = min(start + a.batch, n)
        index.add_items(data[start:stop], np.arange(start, stop), num_threads=a.threads)
    build, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    mem = rss_bytes() - before
    print(json.dumps({"kind": "build", "n": n, "seconds": build, "cpu_seconds": cpu,
                      "index_bytes": mem, "version": version()}), flush=True)

    index.set_num_threads(1)
    rows = [queries[i:i + 1] for i in range(len(queries))]
    for ef in [int(x) for x in a.efs.split(",")]:
        index.set_ef(max(ef, a.k))
        lat = []
        found = 0
        for i, q in enumerate(rows):
            s = time.perf_counter_ns()
            labels, _ = index.knn_query(q, k=a.k)
            lat.append(time.perf_counter_ns() - s)
            found += len(set(labels[0].tolist()) & set(truth[i].tolist()))
        lat.sort()
        print(json.dumps({"kind": "search", "ef": ef, "recall": found / (a.k * len(rows)),
                          "p50_ms": lat[len(lat) // 2] / 1e6, "p99_ms": lat[len(lat) * 99 // 100] / 1e6,
                          "mean_ms": sum(lat) / len(lat) / 1e6}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
