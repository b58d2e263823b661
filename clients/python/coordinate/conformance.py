"""The conformance runner: ``python3 -m coordinate.conformance --bootstrap-servers B --namespace N --spec S
--concurrency C [--lease-seconds L] [--prefetch P] [--name W] [--max-backoff-seconds X] [--noop]``.

Runs one worker with the scripted handler (or a no-op one) until SIGTERM or SIGINT, then stops it gracefully.
Prints ``ready`` once started, and ``finished=<n> failed=<n> retried=<n> requests=<n>`` at exit; logs go to stderr.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys

from .client import Client
from .scripted import ScriptedHandler
from .worker import Worker


def noop(attempt):
    return {}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m coordinate.conformance")
    parser.add_argument("--bootstrap-servers", default="127.0.0.1:9092")
    parser.add_argument("--namespace", required=True)
    parser.add_argument("--spec", action="append", default=[])
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--lease-seconds", type=float, default=30.0)
    parser.add_argument("--prefetch", type=int)
    parser.add_argument("--name")
    parser.add_argument("--max-backoff-seconds", type=float, default=5.0)
    parser.add_argument("--noop", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    client = Client(bootstrap_servers=args.bootstrap_servers, namespace=args.namespace)
    worker = Worker(
        client,
        specs=args.spec,
        handler=noop if args.noop else ScriptedHandler(),
        concurrency=args.concurrency,
        lease=args.lease_seconds,
        prefetch=args.prefetch,
        backoff=(min(0.1, args.max_backoff_seconds), args.max_backoff_seconds),
        name=args.name,
    )
    # Handled from before the start, so that a stop signal right after "ready" is a graceful stop too.
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: worker.request_stop())
    try:
        worker.start()
        print("ready", flush=True)
        worker.run()
    finally:
        print(f"finished={worker.finished} failed={worker.failed} retried={worker.retried} "
              f"requests={worker.requests}", flush=True)
        client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
