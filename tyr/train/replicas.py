"""DiLoCo rounds that survive a lost worker: replica groups coordinated by torchft.

With `--lighthouse URL` every training process is a replica group of its own, launched
on its own (its own torchrun, `--nproc_per_node 1 --max-restarts N`, its own
`--master-port`), with `--replica-id i` of `--replicas n`. There is no process group
over all of them, so no collective can hang on a dead peer. At each DiLoCo round
torchft's `Manager` asks the lighthouse for a quorum of the replicas that are alive,
builds a gloo group over them and all-reduces the pseudo-gradient there:

* a replica that died is not in the next quorum (the lighthouse stops hearing its
  heartbeat); if it dies during the all-reduce, the all-reduce fails within
  `--ft-timeout` seconds, `should_commit` says no on every survivor, and the round is
  rolled back (`tyr.optim.DiLoCo`); the next round goes on with the survivors;
* a replica that comes back (torchrun restarts it) resumes from its own checkpoint,
  joins the next quorum, finds itself behind, and is *healed*: torchft copies a live
  peer's DiLoCo state (start-of-round weights, outer momentum, inner optimizer) to it
  before the all-reduce, in which it takes part with zeros; from then on it trains in
  step with the others.

The lighthouse: `python -m tyr.train.lighthouse --bind 127.0.0.1:29510`, or torchft's own
`torchft_lighthouse --min_replicas 1 --bind 0.0.0.0:29510`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from tyr import Tensor
from tyr.train.config import TrainConfig

N = TypeVar("N")

MISSING = """\
--lighthouse needs torchft (fault-tolerant DiLoCo rounds): pip install 'torchft==0.2.0'
(or: pip install -e '.[dev]' in a tyr checkout)."""


class ReplicaGroup:
    """This process as one replica of a torchft-coordinated DiLoCo run; `average` is DiLoCo's `Average`.

    Args:
        config: the run's config (`lighthouse`, `replica_id`, `ft_timeout`).
        state: returns what a healing peer receives (the DiLoCo state dict).
        load: loads what a healthy peer sent.

    What the replicas share is the model's state; each keeps its own step, data position
    and counters, so a healed replica goes on from its own checkpoint's step.
    """

    def __init__(self, config: TrainConfig, state: Callable[[], Any], load: Callable[[Any], None]) -> None:
        try:
            from torchft import Manager, ProcessGroupGloo
        except ImportError:
            raise SystemExit(MISSING) from None
        timeout = timedelta(seconds=config.ft_timeout)
        self.manager = Manager(
            pg=ProcessGroupGloo(timeout=timeout), min_replica_size=1, load_state_dict=load, state_dict=state,
            replica_id=f"replica_{config.replica_id}", lighthouse_addr=config.lighthouse, rank=0, world_size=1,
            timeout=timeout, quorum_timeout=timeout, connect_timeout=timeout, use_async_quorum=False,
        )  # fmt: skip
        self.round_sizes: Counter[int] = Counter()  # committed rounds by the number of replicas in them

    def average(self, flat: Tensor[N]) -> bool:
        """The mean of `flat` over the replicas alive now (in place); False: roll the round back."""
        self.manager.start_quorum()  # may heal this replica (loads a peer's state) before returning
        participants = self.manager.num_participants()
        self.manager.allreduce(flat).wait()
        committed = bool(self.manager.should_commit())
        if committed:
            self.round_sizes[participants] += 1
        return committed

    def state_dict(self) -> dict[str, int]:
        """The manager's step counters, for the checkpoint (a restarted replica knows how far behind it is)."""
        return dict(self.manager.state_dict())

    def load_state_dict(self, state: dict[str, int]) -> None:
        self.manager.load_state_dict(state)

    def shutdown(self) -> None:
        self.manager.shutdown(wait=False)
