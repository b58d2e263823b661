// The typed replies of the commands, as the Java client's records (docs/reference.md "Records").

function time(text) {
  return text == null ? null : new Date(text);
}

/** A work spec as the app holds it: its data, metadata and unit counts by status (zero counts left out). */
export class WorkSpecInfo {
  constructor(json) {
    this.name = json.name;
    this.data = json.data ?? {};
    this.meta = json.meta ?? {};
    this.counts = json.counts ?? {};
  }

  /** The units with this status now (0 when none). */
  count(status) {
    return this.counts[status] ?? 0;
  }

  get paused() {
    return this.meta.paused === true;
  }
}

/**
 * The reply to `add_work_units`: how many units were written and their names in order; with an `ifExists`
 * option also the names added (new), replaced and kept, else empty lists.
 */
export class AddedUnits {
  constructor(added, workUnitNames, addedNames = [], replaced = [], kept = []) {
    this.added = added;
    this.workUnitNames = workUnitNames;
    this.addedNames = addedNames;
    this.replaced = replaced;
    this.kept = kept;
  }

  static from(json) {
    const names = json.work_unit_names ?? [];
    if (!Array.isArray(json.added)) {
      return new AddedUnits(json.added ?? 0, names);
    }
    const replaced = json.replaced ?? [];
    return new AddedUnits(json.added.length + replaced.length, names, json.added, replaced, json.kept ?? []);
  }

  plus(next) {
    return new AddedUnits(
      this.added + next.added,
      [...this.workUnitNames, ...next.workUnitNames],
      [...this.addedNames, ...next.addedNames],
      [...this.replaced, ...next.replaced],
      [...this.kept, ...next.kept],
    );
  }
}

/** An attempt handed out by `request_attempts` (an item of an assignment). */
export class AssignedAttempt {
  constructor(json) {
    this.attemptId = json.attempt_id;
    this.workSpecName = json.work_spec_name;
    this.workUnitName = json.work_unit_name;
    this.data = json.data ?? {};
    this.startTime = time(json.start_time);
    this.expirationTime = time(json.expiration_time);
  }
}

/** The answer to `request_attempts`: the attempts handed out, best first; none means no work now. */
export class Assignment {
  constructor(json) {
    this.namespace = json.namespace;
    this.worker = json.worker;
    this.requestId = json.request_id ?? null;
    this.attempts = (json.attempts ?? []).map((attempt) => new AssignedAttempt(attempt));
    /** When a spec's rate limit held the request short, the ms until its next token; else null. */
    this.retryAfterMs = typeof json.retry_after_ms === 'number' ? json.retry_after_ms : null;
  }
}

/**
 * An attempt as the app holds it after a renew, finish, fail, retry or expire: its status (`pending`, `finished`,
 * `failed`, `retryable`, `expired`, `cancelled`), whether it is its unit's active attempt, its last progress.
 */
export class AttemptInfo {
  constructor(json) {
    this.attemptId = json.attempt_id;
    this.workSpecName = json.work_spec_name;
    this.workUnitName = json.work_unit_name;
    this.worker = json.worker ?? null;
    this.status = json.status;
    this.data = json.data ?? {};
    this.startTime = time(json.start_time);
    this.expirationTime = time(json.expiration_time);
    this.endTime = time(json.end_time);
    this.active = json.active === true;
    this.progress = json.progress
      ? { fraction: json.progress.fraction ?? null, message: json.progress.message ?? null, time: time(json.progress.time) }
      : null;
  }
}

/** The reply to `finish_attempts`: the items applied, and those refused with their error code. */
export class FinishedAttempts {
  constructor(finished, errors) {
    this.finished = finished;
    this.errors = errors;
  }

  static from(json) {
    const errors = (json.errors ?? []).map((error) => ({
      attemptId: error.attempt_id,
      code: error.code,
      message: error.message,
    }));
    return new FinishedAttempts(json.finished ?? 0, errors);
  }

  plus(next) {
    return new FinishedAttempts(this.finished + next.finished, [...this.errors, ...next.errors]);
  }
}

/** A worker as the app holds it (docs/reference.md "Worker"). */
export class WorkerInfo {
  constructor(json) {
    this.name = json.name;
    this.parent = json.parent ?? null;
    this.active = json.active === true;
    this.mode = json.mode ?? null;
    this.data = json.data ?? {};
    this.expiration = time(json.expiration);
    this.expired = json.expired === true;
    this.activeAttempts = json.active_attempts ?? [];
  }
}
