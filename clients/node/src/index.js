// The Node client and worker of Coordinate Streams: see README.md and index.d.ts.

export { Client } from './client.js';
export { Worker } from './worker.js';
export { Attempt } from './attempt.js';
export {
  CoordinateError,
  CommandRefused,
  CoordinateTimeout,
  CoordinateUnreachable,
  FailAttempt,
  RetryLater,
} from './errors.js';
export {
  AddedUnits,
  AssignedAttempt,
  Assignment,
  AttemptInfo,
  FinishedAttempts,
  WorkSpecInfo,
  WorkerInfo,
} from './results.js';
export { murmur2, partitionFor } from './murmur2.js';
