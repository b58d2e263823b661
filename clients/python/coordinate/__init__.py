"""Client and worker for Coordinate Streams (docs/client.md and clients/python/README.md)."""

from .attempt import Attempt
from .client import Client
from .errors import CommandRefused, CoordinateError, CoordinateUnreachable, FailAttempt, RetryLater
from .models import (
    AddedUnits,
    AssignedAttempt,
    Assignment,
    AttemptInfo,
    FinishedAttempts,
    RefusedFinish,
    WorkerInfo,
    WorkSpec,
    WorkSpecInfo,
    WorkUnit,
)
from .worker import Worker

__all__ = [
    "AddedUnits", "AssignedAttempt", "Assignment", "Attempt", "AttemptInfo", "Client", "CommandRefused",
    "CoordinateError", "CoordinateUnreachable", "FailAttempt", "FinishedAttempts", "RefusedFinish", "RetryLater",
    "Worker", "WorkerInfo", "WorkSpec", "WorkSpecInfo", "WorkUnit",
]
