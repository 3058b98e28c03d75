"""A torchft lighthouse for DiLoCo runs with `--lighthouse` (see `tyr.train.replicas`).

    python -m tyr.train.lighthouse --bind 127.0.0.1:29510

It forms each round's quorum from the replicas that are alive: all of them at once when
every replica of the last round asks, else whoever asked within `--join-timeout`; a
replica silent for `--heartbeat-timeout` seconds counts as gone.
"""

from __future__ import annotations

import argparse
import time

from tyr.train.replicas import MISSING


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bind", default="127.0.0.1:29510", help="host:port to listen on (default 127.0.0.1:29510)")
    parser.add_argument("--min-replicas", type=int, default=1, help="replicas a round needs (default 1)")
    parser.add_argument("--join-timeout", type=float, default=1.0,
                        help="seconds a round waits for late replicas when one is missing (default 1)")  # fmt: skip
    parser.add_argument("--heartbeat-timeout", type=float, default=2.0,
                        help="seconds without a heartbeat before a replica counts as gone (default 2)")  # fmt: skip
    args = parser.parse_args()
    try:
        from torchft._torchft import LighthouseServer
    except ImportError:
        raise SystemExit(MISSING) from None
    server = LighthouseServer(bind=args.bind, min_replicas=args.min_replicas,
                              join_timeout_ms=int(args.join_timeout * 1000),
                              heartbeat_timeout_ms=int(args.heartbeat_timeout * 1000))  # fmt: skip
    print(f"lighthouse at {server.address()}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.shutdown()


if __name__ == "__main__":
    main()
