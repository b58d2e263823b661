// Types of coordinate-client: the Node client and worker of Coordinate Streams (README.md).

import type { KafkaConfig } from 'kafkajs';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface ClientOptions {
  /** Comma-separated host:port (default `127.0.0.1:9092`). */
  bootstrapServers?: string;
  /** The namespace of the commands; without one, use `inNamespace`. */
  namespace?: string | null;
  /** More settings of kafkajs's `Kafka` (ssl, sasl, logLevel, ...). */
  kafkaConfig?: Partial<KafkaConfig>;
  /** How long to wait for each reply, and for Kafka when connecting (default 30000). */
  timeoutMs?: number;
  /** The deployment's topic prefix (default none). */
  topicPrefix?: string;
  /** The key of this client's replies on `coordinate.replies` (default `client-<uuid>`). */
  replyTo?: string | null;
}

/** An item of `add_work_units` (docs/reference.md "Unit object"). */
export interface WorkUnit {
  name?: string;
  data?: JsonObject;
  priority?: number;
  group?: string;
  delay?: number;
  not_before?: string;
  parent?: { work_spec_name?: string; work_unit_name: string };
  predecessor?: { work_spec_name?: string; work_unit_name: string };
  if_exists?: IfExists;
}

/** The spec's data, with its name (docs/reference.md "set_work_spec"). */
export interface WorkSpec {
  name: string;
  [key: string]: Json | undefined;
}

/** Which units a command applies to (docs/reference.md "Query object"); `{}` is every unit. */
export interface UnitQuery {
  names?: string[];
  statuses?: string[];
  previous_name?: string;
  limit?: number;
}

export type IfExists = 'replace' | 'keep' | 'keep_unless_finished';

export interface AttemptRequest {
  worker: string;
  /** The most attempts to hand out (default 1). */
  count?: number;
  /** The lease of each attempt (the app's default: 900 s). */
  leaseMs?: number;
  workSpecs?: string[];
  runtimes?: string[];
  availableGb?: number;
  /** The same id again (same worker, within 10 minutes) gets the attempts of the first request. */
  requestId?: string;
}

export interface Progress {
  fraction?: number | null;
  message?: string | null;
}

export class WorkSpecInfo {
  name: string;
  data: JsonObject;
  meta: JsonObject;
  counts: Record<string, number>;
  /** The units with this status now (0 when none). */
  count(status: string): number;
  readonly paused: boolean;
}

export class AddedUnits {
  /** Units written (new or replaced). */
  added: number;
  workUnitNames: string[];
  /** With `ifExists` only (else empty): the new units, those replaced, those kept. */
  addedNames: string[];
  replaced: string[];
  kept: string[];
}

export class AssignedAttempt {
  attemptId: string;
  workSpecName: string;
  workUnitName: string;
  data: JsonObject;
  startTime: Date | null;
  expirationTime: Date | null;
}

export class Assignment {
  namespace: string;
  worker: string;
  requestId: string | null;
  attempts: AssignedAttempt[];
  /** When a spec's rate limit held the request short, the ms until its next token; else null. */
  retryAfterMs: number | null;
}

export class AttemptInfo {
  attemptId: string;
  workSpecName: string;
  workUnitName: string;
  worker: string | null;
  /** `pending`, `finished`, `failed`, `retryable`, `expired` or `cancelled`. */
  status: string;
  data: JsonObject;
  startTime: Date | null;
  expirationTime: Date | null;
  endTime: Date | null;
  active: boolean;
  progress: { fraction: number | null; message: string | null; time: Date | null } | null;
}

export class FinishedAttempts {
  finished: number;
  errors: { attemptId: string; code: string; message: string }[];
}

export class WorkerInfo {
  name: string;
  parent: string | null;
  active: boolean;
  mode: string | null;
  data: JsonObject;
  expiration: Date | null;
  expired: boolean;
  activeAttempts: string[];
}

export class CoordinateError extends Error {}
/** The app refused the command (its reply's `ok` was false); the command changed nothing. */
export class CommandRefused extends CoordinateError {
  constructor(code: string, message: string);
  /** The reply's error code (docs/reference.md "Error codes"). */
  code: string;
  /** The reply's message. */
  reason: string;
}
/** No reply within the client's timeout: the command may still be applied later. */
export class CoordinateTimeout extends CoordinateError {}
/** Kafka could not be reached when connecting, or the app's topics are not there. */
export class CoordinateUnreachable extends CoordinateError {}

/** Thrown by a handler: fails the attempt with `data` (default `{traceback: message}`), permanent unless `retryable`. */
export class FailAttempt extends Error {
  constructor(message: string, data?: JsonObject | null, retryable?: boolean);
  data: JsonObject | null;
  retryable: boolean;
}

/** Thrown by a handler: gives the unit back, to run again no sooner than `delayMs` from now. */
export class RetryLater extends Error {
  constructor(message: string, delayMs?: number);
  delayMs: number;
}

export class Client {
  constructor(options?: ClientOptions);
  readonly namespace: string | null;
  readonly timeoutMs: number;
  readonly replyTo: string;
  /** Connects; rejects with CoordinateUnreachable when Kafka cannot be reached within the timeout. */
  connect(): Promise<this>;
  /** A client of another namespace on the same connection (closing it closes nothing). */
  inNamespace(namespace: string): Client;
  /** Sends any command as JSON and resolves with the whole reply, refused or not. */
  submit(command: JsonObject, timeoutMs?: number): Promise<JsonObject>;

  setWorkSpec(spec: WorkSpec): Promise<WorkSpecInfo>;
  setWorkSpecMeta(workSpecName: string, meta: JsonObject): Promise<WorkSpecInfo>;
  deleteWorkSpec(workSpecName: string): Promise<void>;

  addWorkUnits(workSpecName: string, units: WorkUnit[], ifExists?: IfExists | null): Promise<AddedUnits>;
  prioritizeWorkUnits(workSpecName: string, query: UnitQuery, priority: number): Promise<number>;
  adjustWorkUnitPriority(workSpecName: string, query: UnitQuery, adjustment: number): Promise<number>;
  deleteWorkUnits(workSpecName: string, query?: UnitQuery): Promise<number>;
  resetWorkUnits(workSpecName: string, query?: UnitQuery): Promise<number>;
  cancelWorkUnits(workSpecName: string, query?: UnitQuery): Promise<number>;

  requestAttempts(request: AttemptRequest): Promise<Assignment>;
  renewAttempt(
    attemptId: string,
    options?: { extendMs?: number; data?: JsonObject | null; progress?: Progress | null },
  ): Promise<AttemptInfo>;
  finishAttempt(attemptId: string, data?: JsonObject | null): Promise<AttemptInfo>;
  finishAttempts(finishes: { attemptId: string; data?: JsonObject | null }[]): Promise<FinishedAttempts>;
  failAttempt(attemptId: string, data?: JsonObject | null, retryable?: boolean): Promise<AttemptInfo>;
  retryAttempt(
    attemptId: string,
    options?: { data?: JsonObject | null; delayMs?: number; release?: boolean },
  ): Promise<AttemptInfo>;
  expireAttempt(attemptId: string, data?: JsonObject | null): Promise<AttemptInfo>;

  workerHeartbeat(
    worker: string,
    options?: { parent?: string | null; mode?: string | null; data?: JsonObject | null; expireMs?: number },
  ): Promise<WorkerInfo>;
  deactivateWorker(worker: string): Promise<WorkerInfo>;
  destroyNamespace(): Promise<void>;
  close(): Promise<void>;
}

/** An attempt as a Worker hands it to its handler. */
export class Attempt {
  readonly id: string;
  readonly spec: string;
  readonly unit: string;
  readonly data: JsonObject;
  readonly startTime: Date | null;
  readonly expirationTime: Date | null;
  /** Aliases of id, spec and unit, as the Java client names them. */
  readonly attemptId: string;
  readonly workSpecName: string;
  readonly workUnitName: string;
  /** True once the unit was cancelled: stop, nothing more is reported. */
  readonly cancelled: boolean;
  /** Aborted when the unit is cancelled, the lease lost, or the worker's stop timed out. */
  readonly signal: AbortSignal;
  /** Reports progress (fraction 0 to 1, message cut at 1000 characters); sent at most once a second, the latest wins. */
  progress(fraction: number | null, message?: string | null): void;
  /** Runs `callback` when the attempt is cancelled (at once if it already is). */
  onCancel(callback: () => void): void;
}

/** What a handler returns: the finish's data (an object, or nothing; another value is sent as `{result: value}`). */
export type Handler = (attempt: Attempt) => Promise<JsonObject | void | null> | JsonObject | void | null;

export interface WorkerOptions {
  /** Only units of these specs (default: any spec of the namespace). */
  specs?: string[];
  handler: Handler;
  /** Handlers running at once (default 1). */
  concurrency?: number;
  /** The lease asked for, renewed at half its lifetime while the attempt is held (default 30000). */
  leaseMs?: number;
  /** A fixed number of attempts to hold queued for a free handler; default: adaptive (README, "How much it holds"). */
  prefetch?: number | null;
  /** The most attempts the adaptive queue holds (default 1000). */
  maxHeld?: number;
  /** The wait after an empty answer: from the first, doubling up to the second (default [100, 5000]). */
  backoffMs?: [number, number];
  /** How long a stop lets running handlers end before it aborts them and releases their units (default 30000). */
  closeTimeoutMs?: number;
  /** How often the worker checks in (default 30000). */
  heartbeatIntervalMs?: number;
  /** Finishes go out in batches of up to this many (100), held at most finishLingerMs (20). */
  finishBatch?: number;
  finishLingerMs?: number;
  /** Whether SIGTERM and SIGINT stop the worker gracefully (default true; a second signal exits at once). */
  handleSignals?: boolean;
  /** The worker's name (default `<host>-<pid>-<random>`); unique among running workers. */
  name?: string | null;
}

export class Worker {
  constructor(client: Client, options: WorkerOptions);
  readonly name: string;
  /** Units finished (by the app's count). */
  readonly finished: number;
  /** Attempts failed because the handler threw (retryable or not). */
  readonly failed: number;
  /** Attempts given back: RetryLater, or released at the stop. */
  readonly retried: number;
  /** request_attempts commands sent. */
  readonly requests: number;
  /** Resolves once the worker has stopped. */
  readonly stopped: Promise<void>;
  /** Starts working; resolves once it reads its assignments and has asked for work. */
  start(): Promise<this>;
  /** Starts, and resolves once it has stopped (by stop(), SIGTERM or SIGINT). */
  run(): Promise<void>;
  /** Stops gracefully (README, "Stopping"). */
  stop(): Promise<void>;
}

/** Kafka's murmur2 of some bytes, unsigned. */
export function murmur2(bytes: Uint8Array): number;
/** The partition Kafka's Java producer picks for a string key. */
export function partitionFor(key: string, partitions: number): number;
