// Sends commands to Coordinate Streams over Kafka: one method per command, each resolving with its typed reply
// or rejecting with CommandRefused (docs/reference.md). The Node counterpart of the Java CoordinateClient.

import { randomUUID } from 'node:crypto';
import { Connection } from './connection.js';
import { CommandRefused } from './errors.js';
import { inOrder, split } from './batches.js';
import { AddedUnits, Assignment, AttemptInfo, FinishedAttempts, WorkSpecInfo, WorkerInfo } from './results.js';

const seconds = (ms) => ms / 1000;

/** A command on one attempt, with its data when given. */
function attemptCommand(name, attemptId, data) {
  const command = { command: name, attempt_id: attemptId };
  if (data != null) command.data = data;
  return command;
}

export class Client {
  /**
   * @param {object} [options]
   * @param {string} [options.bootstrapServers] default `127.0.0.1:9092`
   * @param {string} [options.namespace] the namespace of the commands; without one, use `inNamespace`
   * @param {object} [options.kafkaConfig] more settings of kafkajs's `Kafka` (ssl, sasl, logLevel, ...)
   * @param {number} [options.timeoutMs] how long to wait for each reply, and for Kafka when connecting (30 s)
   * @param {string} [options.topicPrefix] the deployment's topic prefix (none)
   * @param {string} [options.replyTo] the key of this client's replies (default `client-<uuid>`)
   */
  constructor({
    bootstrapServers = '127.0.0.1:9092',
    namespace = null,
    kafkaConfig = {},
    timeoutMs = 30_000,
    topicPrefix = '',
    replyTo = null,
  } = {}, connection = null) {
    this.namespace = namespace;
    this.timeoutMs = timeoutMs;
    this.connection =
      connection ??
      new Connection({ bootstrapServers, kafkaConfig, timeoutMs, topicPrefix, replyTo: replyTo ?? `client-${randomUUID()}` });
    this.ownsConnection = connection === null;
  }

  /** Connects to Kafka; rejects with CoordinateUnreachable when it cannot within the timeout. */
  async connect() {
    await this.connection.open();
    return this;
  }

  /** The key the app answers this client under on `coordinate.replies`. */
  get replyTo() {
    return this.connection.replyTo;
  }

  /** A client of another namespace on the same connection (closing it closes nothing). */
  inNamespace(namespace) {
    return new Client({ namespace: requireNamespace(namespace), timeoutMs: this.timeoutMs }, this.connection);
  }

  /**
   * Sends a command given as a JSON object, for a command or field this client has no method for, and resolves
   * with the whole reply (`ok`, `result` or `error`), refused or not. A `request_id` in it is kept.
   */
  async submit(command, timeoutMs = this.timeoutMs) {
    return this.connection.call(requireNamespace(this.namespace), structuredClone(command), timeoutMs);
  }

  // --- work specs

  /** Creates the spec, or reloads an existing one: `spec` is its data, with its `name` (docs/reference.md#set_work_spec). */
  setWorkSpec(spec) {
    return this.call({ command: 'set_work_spec', work_spec: spec }, (result) => new WorkSpecInfo(result));
  }

  /** Changes only the given metadata fields, e.g. `{paused: true}`. */
  setWorkSpecMeta(workSpecName, meta) {
    return this.call(
      { command: 'set_work_spec_meta', work_spec_name: workSpecName, meta },
      (result) => new WorkSpecInfo(result),
    );
  }

  /** Deletes the spec with its units and attempts. */
  deleteWorkSpec(workSpecName) {
    return this.call({ command: 'delete_work_spec', work_spec_name: workSpecName }, () => undefined);
  }

  // --- work units

  /**
   * Adds units (`{name, data, priority, group, delay, not_before, parent, predecessor}`: docs/reference.md
   * "Unit object"), or replaces units of the same names. However many, they go in commands that fit a Kafka
   * record, one after the other; if one is refused the units before it stay added. `ifExists`: `keep`,
   * `keep_unless_finished` or `replace`; with it the reply names the units added, replaced and kept.
   */
  addWorkUnits(workSpecName, units, ifExists = null) {
    return inOrder(
      split(units),
      (batch) => {
        const command = { command: 'add_work_units', work_spec_name: workSpecName, work_units: batch };
        if (ifExists != null) command.if_exists = ifExists;
        return this.call(command, AddedUnits.from);
      },
      (sofar, next) => sofar.plus(next),
    );
  }

  /** Sets the priority of the units the query matches (docs/reference.md "Query object"); resolves with how many. */
  prioritizeWorkUnits(workSpecName, query, priority) {
    return this.#queryCommand('prioritize_work_units', workSpecName, query, { priority }, 'prioritized');
  }

  /** Adds `adjustment` to the priority of the matching units; resolves with how many matched. */
  adjustWorkUnitPriority(workSpecName, query, adjustment) {
    return this.#queryCommand('prioritize_work_units', workSpecName, query, { adjustment }, 'prioritized');
  }

  /** Deletes the matching units; resolves with how many. */
  deleteWorkUnits(workSpecName, query = {}) {
    return this.#queryCommand('delete_work_units', workSpecName, query, {}, 'deleted');
  }

  /** Drops the active attempt of the matching units so that they run again; resolves with how many. */
  resetWorkUnits(workSpecName, query = {}) {
    return this.#queryCommand('reset_work_units', workSpecName, query, {}, 'reset');
  }

  /** Cancels the matching units (a running attempt's worker learns it); resolves with how many. */
  cancelWorkUnits(workSpecName, query = {}) {
    return this.#queryCommand('cancel_work_units', workSpecName, query, {}, 'cancelled');
  }

  // --- attempts

  /**
   * Asks for work and resolves with the Assignment (also written to `coordinate.assignments` under the worker's
   * key). Give a `requestId` to retry a call safely: the same one again gets the attempts of the first.
   *
   * @param {{worker: string, count?: number, leaseMs?: number, workSpecs?: string[], runtimes?: string[],
   *   availableGb?: number, requestId?: string}} request
   */
  requestAttempts(request) {
    return this.call(attemptRequest(request), (result) => new Assignment(result));
  }

  /** Extends the lease to now + `extendMs`; `data` replaces the attempt's data, `progress` is `{fraction, message}`. */
  async renewAttempt(attemptId, { extendMs = 900_000, data = null, progress = null } = {}) {
    const command = attemptCommand('renew_attempt', attemptId, data);
    command.extend = seconds(extendMs);
    if (progress != null) command.progress = progressJson(progress);
    return this.call(command, (result) => new AttemptInfo(result));
  }

  /** Success: the unit is finished, with `data` (may be null) as its result. */
  finishAttempt(attemptId, data = null) {
    return this.call(attemptCommand('finish_attempt', attemptId, data), (result) => new AttemptInfo(result));
  }

  /** Many finishes (`[{attemptId, data}]`), each applied as finishAttempt would be, in as many commands as fit. */
  finishAttempts(finishes) {
    const items = finishes.map(({ attemptId, data }) =>
      data == null ? { attempt_id: attemptId } : { attempt_id: attemptId, data },
    );
    return inOrder(
      split(items),
      (batch) => this.call({ command: 'finish_attempts', attempts: batch }, FinishedAttempts.from),
      (sofar, next) => sofar.plus(next),
    );
  }

  /**
   * A failure, `retryable` or not (the default: permanent). A retryable one runs again after the spec's `retry`
   * policy's delay while it allows; without a policy, or not retryable, the unit is failed.
   */
  failAttempt(attemptId, data = null, retryable = false) {
    const command = attemptCommand('fail_attempt', attemptId, data);
    if (retryable) command.retryable = true; // absent is the wire's default, a permanent failure
    return this.call(command, (result) => new AttemptInfo(result));
  }

  /** Gives the unit back, to run again no sooner than `delayMs` from now; a `release` (a stop) is not counted. */
  retryAttempt(attemptId, { data = null, delayMs = 0, release = false } = {}) {
    const command = attemptCommand('retry_attempt', attemptId, data);
    command.delay = seconds(delayMs);
    if (release) command.release = true;
    return this.call(command, (result) => new AttemptInfo(result));
  }

  /** Gives the unit back now. */
  expireAttempt(attemptId, data = null) {
    return this.call(attemptCommand('expire_attempt', attemptId, data), (result) => new AttemptInfo(result));
  }

  // --- workers and namespaces

  /** Creates or refreshes a worker and marks it active; it shows as expired after `expireMs`. */
  workerHeartbeat(worker, { parent = null, mode = null, data = null, expireMs = 900_000 } = {}) {
    const command = { command: 'worker_heartbeat', worker, expire: seconds(expireMs) };
    if (parent != null) command.parent = parent;
    if (mode != null) command.mode = mode;
    if (data != null) command.data = data;
    return this.call(command, (result) => new WorkerInfo(result));
  }

  deactivateWorker(worker) {
    return this.call({ command: 'deactivate_worker', worker }, (result) => new WorkerInfo(result));
  }

  /** Removes everything in this client's namespace. */
  destroyNamespace() {
    return this.call({ command: 'destroy_namespace' }, () => undefined);
  }

  /** Closes the Kafka connection (a client from inNamespace closes nothing). */
  async close() {
    if (this.ownsConnection) await this.connection.close();
  }

  /** Sends a command and resolves with its parsed result, or rejects with CommandRefused. */
  async call(command, parse) {
    const reply = await this.connection.call(requireNamespace(this.namespace), command, this.timeoutMs);
    if (reply.ok !== true) {
      throw new CommandRefused(reply.error?.code ?? 'unknown', reply.error?.message ?? '');
    }
    return parse(reply.result ?? {});
  }

  #queryCommand(name, workSpecName, query, fields, counted) {
    const command = { command: name, work_spec_name: workSpecName, query: query ?? {}, ...fields };
    return this.call(command, (result) => result[counted] ?? 0);
  }
}

/** The `request_attempts` command of a request given as in Client#requestAttempts. */
export function attemptRequest({ worker, count = 1, leaseMs = null, workSpecs = null, runtimes = null, availableGb = null, requestId = null }) {
  const command = { command: 'request_attempts', worker, count };
  if (leaseMs != null) command.lifetime = Math.floor(leaseMs) / 1000;
  if (workSpecs != null && workSpecs.length > 0) command.work_specs = [...workSpecs];
  if (runtimes != null) command.runtimes = [...runtimes];
  if (availableGb != null) command.available_gb = availableGb;
  if (requestId != null) command.request_id = requestId;
  return command;
}

const MAX_MESSAGE_CHARS = 1000;

/** A progress as `renew_attempt` takes it: a fraction from 0 to 1 and a message cut at 1000 characters, each optional. */
export function progressJson({ fraction = null, message = null }) {
  if (fraction != null && !(typeof fraction === 'number' && fraction >= 0 && fraction <= 1)) {
    throw new RangeError(`a progress fraction is from 0 to 1: ${fraction}`);
  }
  const json = {};
  if (fraction != null) json.fraction = fraction;
  if (message != null) json.message = String(message).slice(0, MAX_MESSAGE_CHARS);
  return json;
}

function requireNamespace(namespace) {
  if (!namespace) {
    throw new Error('a namespace is required: give one to the Client, or use inNamespace');
  }
  return namespace;
}
