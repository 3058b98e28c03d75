"""tyr.train: the training loop every tyr trainer shares.

A trainer is a `Task` (its model, loss, validation nats and sampler), a config (a
`TrainConfig`, or a subclass adding the trainer's own options) and its presets::

    from tyr.train import Trainer, parse_config
    config = parse_config(TrainConfig, PRESETS, description=__doc__)
    Trainer(GPTTask(), config).run()

Modules: `config` (the shared options and the command line), `task` (the protocol a
trainer implements), `loop` (`Trainer`: processes, data, optimizer, accumulation,
checkpoints, signals, progress, metrics, validation, sampling), `threads` (CPU threads
per process).
"""

from tyr.train.config import TrainConfig, parse_config
from tyr.train.loop import StopRequest, Trainer, build_optimizer, build_schedule, text_nats, train
from tyr.train.task import Task
from tyr.train.threads import choose_threads

__all__ = [
    "StopRequest",
    "Task",
    "TrainConfig",
    "Trainer",
    "build_optimizer",
    "build_schedule",
    "choose_threads",
    "parse_config",
    "text_nats",
    "train",
]
