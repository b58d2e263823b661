#!/usr/bin/env python3
"""Hot spots of a JFR recording of `bin/coordinate bench`, as quoted in docs/performance.md.

    JAVA_OPTS="-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -XX:StartFlightRecording=filename=/tmp/x.jfr,settings=profile" \
        bin/coordinate bench --phases lifecycle --skip-scale
    python3 bench/jfr-hotspots.py /tmp/x.jfr [FROM TO]     # FROM/TO: HH:MM:SS (UTC), e.g. the work phase

Prints: Java samples by thread; the stream thread's native samples (RocksDB calls, with the engine method that
made them); the stream thread's Java samples by inclusive frame (the app's, Kafka Streams' cache and commit,
Jackson) and by top frame. JFR samples a few threads per period, so read the shares within a section, not across.
"""
import collections
import re
import subprocess
import sys


def events(recording, kind):
    text = subprocess.run(["jfr", "print", "--stack-depth", "64", "--events", kind, recording],
                          check=True, capture_output=True, text=True).stdout
    for block in text.split(kind + " {")[1:]:
        time = re.search(r"startTime = (\d\d:\d\d:\d\d)", block).group(1)
        thread = re.search(r'sampledThread = "([^"]*)"', block)
        frames = re.findall(r"^\s+([\w$.<>]+)\(", block, re.M)
        yield time, thread.group(1) if thread else "?", frames


def thread_kind(name):
    if "StreamThread" in name:
        return "streams producer I/O" if "producer" in name else "stream thread"
    if "bench" in name:
        return "load generator"
    if any(k in name for k in ("kafka", "data-plane", "raft", "group-coordinator", "Txn", "controller")):
        return "broker"
    return "other: " + re.sub(r"\d+", "N", name)[:40]


def short(frame):
    return ".".join(frame.split(".")[-2:])


def table(counter, total, limit):
    for key, count in counter.most_common(limit):
        print(f"  {100.0 * count / max(1, total):5.1f}%  {key}")


def main():
    recording = sys.argv[1]
    lo, hi = (sys.argv[2], sys.argv[3]) if len(sys.argv) > 3 else ("00:00:00", "99:99:99")
    java = [e for e in events(recording, "jdk.ExecutionSample") if lo <= e[0] <= hi]
    native = [e for e in events(recording, "jdk.NativeMethodSample") if lo <= e[0] <= hi]

    print(f"Java samples by thread ({len(java)})")
    table(collections.Counter(thread_kind(t) for _, t, _ in java), len(java), 8)

    stream_native = [f for _, t, f in native if thread_kind(t) == "stream thread"]
    print(f"\nStream thread, native samples ({len(stream_native)})")
    kinds = collections.Counter()
    for frames in stream_native:
        top = frames[0] if frames else "?"
        if "EPoll" in top or "epoll" in top:
            kinds["waiting on the network"] += 1
        else:
            callers = [short(f) for f in frames if "io.coordinate" in f and "Streams" not in f
                       and "WriteBuffer" not in f][:3]
            kinds[short(top) + (" from " + " < ".join(callers) if callers else "")] += 1
    table(kinds, len(stream_native), 10)

    stream_java = [f for _, t, f in java if thread_kind(t) == "stream thread"]
    print(f"\nStream thread, Java samples by inclusive frame ({len(stream_java)})")
    inclusive = collections.Counter()
    for frames in stream_java:
        for frame in set(frames):
            if frame.startswith("io.coordinate") or any(k in frame for k in (
                    "NamedCache.flush", "ThreadCache.put", "StreamThread.maybeCommit", "RecordCollectorImpl.send",
                    "ObjectMapper.writeValueAsBytes", "ObjectMapper.readValue")):
                inclusive[short(frame)] += 1
    table(inclusive, len(stream_java), 30)

    print("\nStream thread, Java samples by top frame")
    table(collections.Counter(short(f[0]) for f in stream_java if f), len(stream_java), 12)


if __name__ == "__main__":
    main()
