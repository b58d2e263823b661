// The Kafka side of a client: one producer of commands, and readers of the one partition each waits on (the
// replies of this client's reply_to, the assignments of each worker), read_committed, with nothing committed.

import kafkajs from 'kafkajs';
import lz4 from 'lz4js';
import { CoordinateTimeout, CoordinateUnreachable } from './errors.js';
import { partitionFor } from './murmur2.js';

const { AssignerProtocol, CompressionCodecs, CompressionTypes, Kafka, logLevel: LogLevel } = kafkajs;

/** A send carries at most this many bytes of commands: Kafka refuses a record batch over its limit (1 MB). */
const MAX_SEND_BYTES = 512 * 1024;
/** How long a fetch waits on the broker for a record: also how soon a reader notices its close. */
const FETCH_WAIT_MS = 200;

// The app's producers compress with lz4, which kafkajs reads only with a codec given to it: a pure-JS one here,
// unless the program registered another.
const lz4Codec = () => ({
  async compress(encoder) {
    return asBuffer(lz4.compress(encoder.buffer));
  },
  async decompress(buffer) {
    return asBuffer(lz4.decompress(buffer));
  },
});
try {
  CompressionCodecs[CompressionTypes.LZ4](); // kafkajs's own throws: it has none
} catch {
  CompressionCodecs[CompressionTypes.LZ4] = lz4Codec;
}

function asBuffer(bytes) {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** Kafka's default partitioner (murmur2), computed here so that it is the Java producer's for any key. */
const javaPartitioner = () => ({ partitionMetadata, message }) =>
  partitionFor(String(message.key), partitionMetadata.length);

function stderrLogCreator() {
  return ({ level, log }) => {
    const { message, ...extra } = log;
    process.stderr.write(`kafkajs ${LogLevel[level] ?? level}: ${message} ${JSON.stringify(extra)}\n`);
  };
}

function withTimeout(promise, timeoutMs, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Reads one partition of a topic from a given offset on, with a consumer group of its own: kafkajs cannot
 * `assign` a partition, so the group's only member is given just that partition, and every join of the group (the
 * first, or one after a restart) seeks to the next offset not read yet, so that nothing is skipped.
 */
class PartitionReader {
  constructor(kafka, groupId, topic, partition, onRecord) {
    this.topic = topic;
    this.partition = partition;
    this.onRecord = onRecord;
    this.nextOffset = null;
    this.consumer = kafka.consumer({
      groupId,
      partitionAssigners: [onlyPartition(topic, partition)],
      readUncommitted: false, // the app writes in transactions: an aborted one must not answer
      maxWaitTimeInMs: FETCH_WAIT_MS,
      allowAutoTopicCreation: false,
    });
  }

  /** Starts reading at `offset` (a string); resolves once the group is joined and the position set there. */
  async start(offset) {
    this.nextOffset = offset;
    let joined;
    const join = new Promise((resolve) => (joined = resolve));
    this.consumer.on(this.consumer.events.GROUP_JOIN, () => {
      // Emitted inside the join, before the first fetch: the seek is applied by that fetch.
      this.consumer.seek({ topic: this.topic, partition: this.partition, offset: this.nextOffset });
      joined();
    });
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [this.topic], fromBeginning: false });
    await this.consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) {
          this.nextOffset = (BigInt(message.offset) + 1n).toString();
          this.onRecord(message);
        }
      },
    });
    await join;
  }

  async close() {
    await this.consumer.disconnect();
  }
}

/** A partition assigner that gives the group's member(s) only `topic`'s `partition`. */
function onlyPartition(topic, partition) {
  return () => ({
    name: 'CoordinateOnePartition',
    version: 0,
    async assign({ members }) {
      return members.map(({ memberId }) => ({
        memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({
          version: 0,
          assignment: { [topic]: [partition] },
        }),
      }));
    },
    protocol({ topics }) {
      return {
        name: 'CoordinateOnePartition',
        // The broker reads this as a consumer subscription: it must be one.
        metadata: AssignerProtocol.MemberMetadata.encode({ version: 0, topics }),
      };
    },
  });
}

export class Connection {
  /**
   * @param {object} options
   * @param {string} options.bootstrapServers comma-separated host:port
   * @param {object} [options.kafkaConfig] more settings of kafkajs's `Kafka` (ssl, sasl, ...)
   * @param {number} options.timeoutMs how long to wait for Kafka when connecting, and for each reply
   * @param {string} options.topicPrefix the deployment's topic prefix
   * @param {string} options.replyTo the key of this client's replies
   */
  constructor({ bootstrapServers, kafkaConfig = {}, timeoutMs, topicPrefix = '', replyTo }) {
    this.bootstrapServers = bootstrapServers;
    this.timeoutMs = timeoutMs;
    this.replyTo = replyTo;
    this.topics = {
      commands: `${topicPrefix}coordinate.commands`,
      replies: `${topicPrefix}coordinate.replies`,
      assignments: `${topicPrefix}coordinate.assignments`,
    };
    this.kafka = new Kafka({
      clientId: 'coordinate-node',
      brokers: bootstrapServers.split(',').map((server) => server.trim()),
      logLevel: LogLevel.ERROR,
      logCreator: stderrLogCreator,
      ...kafkaConfig,
    });
    this.waiting = new Map();
    this.readers = new Map();
    this.assignmentSinks = new Map();
    this.queue = [];
    this.sending = false;
    this.sequence = 0;
    this.idPrefix = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-`;
    this.closed = false;
  }

  /** Connects: finds the partitions, starts the producer and the reader of this client's replies. */
  async open() {
    try {
      await withTimeout(this.#open(), this.timeoutMs, 'connecting');
    } catch (error) {
      await this.close().catch(() => {});
      if (error instanceof CoordinateUnreachable) throw error;
      throw new CoordinateUnreachable(`cannot reach Kafka at ${this.bootstrapServers}: ${error.message}`, {
        cause: error,
      });
    }
  }

  async #open() {
    this.admin = this.kafka.admin();
    await this.admin.connect();
    const metadata = await this.admin.fetchTopicMetadata({ topics: [] });
    const counts = new Map(metadata.topics.map((topic) => [topic.name, topic.partitions.length]));
    for (const topic of Object.values(this.topics)) {
      if (!counts.get(topic)) {
        throw new CoordinateUnreachable(
          `topic ${topic} does not exist (is the app set up on this cluster, with this topic prefix?)`,
        );
      }
    }
    this.partitionCounts = counts;
    this.producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: javaPartitioner,
      allowAutoTopicCreation: false,
    });
    await this.producer.connect();
    this.repliesReader = await this.#read(`coordinate-node-${this.replyTo}`, this.topics.replies, this.replyTo, (message) =>
      this.#reply(message),
    );
  }

  /** Starts a reader of `key`'s partition of `topic` at its end, taken before anything can be answered there. */
  async #read(groupId, topic, key, onRecord) {
    const partition = partitionFor(key, this.partitionCounts.get(topic));
    const offsets = await this.admin.fetchTopicOffsets(topic);
    const end = offsets.find((entry) => entry.partition === partition).offset;
    const reader = new PartitionReader(this.kafka, groupId, topic, partition, onRecord);
    try {
      await reader.start(end);
    } catch (error) {
      await reader.close().catch(() => {});
      throw error;
    }
    return reader;
  }

  nextRequestId() {
    return this.idPrefix + ++this.sequence;
  }

  /**
   * Sends a command with this client's reply_to and resolves with its whole reply (`ok`, `result` or `error`).
   * One without a request_id gets a fresh one, which matches the reply; one with its own keeps it, and a fresh
   * correlation_id matches the reply instead, so that two calls with the same id each get an answer.
   */
  call(namespace, command, timeoutMs = this.timeoutMs) {
    const waiterId = this.nextRequestId();
    if (command.request_id == null) {
      command.request_id = waiterId;
      delete command.correlation_id;
    } else {
      command.correlation_id = waiterId;
    }
    command.reply_to = this.replyTo;
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(new Error('client closed'));
        return;
      }
      const timer = setTimeout(() => {
        this.waiting.delete(waiterId);
        reject(new CoordinateTimeout(`no reply to ${command.command} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(waiterId, { resolve, reject, timer });
      this.send(namespace, command).catch((error) => {
        const waiter = this.waiting.get(waiterId);
        if (waiter) {
          this.waiting.delete(waiterId);
          clearTimeout(timer);
          reject(error);
        }
      });
    });
  }

  /** Sends a command that expects no reply here; resolves once Kafka has it. */
  send(namespace, command) {
    command.namespace = namespace;
    const value = JSON.stringify(command);
    return new Promise((resolve, reject) => {
      if (this.closed || !this.producer) {
        reject(new Error('client closed'));
        return;
      }
      this.queue.push({ key: namespace, value, resolve, reject });
      if (!this.sending) {
        this.sending = true;
        setImmediate(() => this.#drain());
      }
    });
  }

  /** Sends what is queued, one send at a time: what comes meanwhile goes in the next, in order. */
  async #drain() {
    while (this.queue.length > 0) {
      let bytes = 0;
      let count = 0;
      while (count < this.queue.length && (count === 0 || bytes + this.queue[count].value.length <= MAX_SEND_BYTES)) {
        bytes += this.queue[count].value.length;
        count++;
      }
      const batch = this.queue.splice(0, count);
      try {
        await this.producer.send({
          topic: this.topics.commands,
          acks: -1,
          messages: batch.map(({ key, value }) => ({ key, value })),
        });
        batch.forEach((item) => item.resolve());
      } catch (error) {
        batch.forEach((item) => item.reject(error));
      }
    }
    this.sending = false;
  }

  #reply(message) {
    if (message.key?.toString() !== this.replyTo) return;
    const value = parse(message.value);
    if (value === null) return;
    const waiterId = typeof value.correlation_id === 'string' ? value.correlation_id : value.request_id;
    const waiter = this.waiting.get(waiterId);
    if (waiter) {
      this.waiting.delete(waiterId);
      clearTimeout(waiter.timer);
      waiter.resolve(value);
    }
  }

  /**
   * Starts reading the assignments of `worker` (its key's partition only) and hands each record to `sink`.
   * Resolves once the position is fixed: request work only after that.
   */
  async watchAssignments(worker, sink) {
    if (this.assignmentSinks.has(worker)) {
      throw new Error(`worker ${worker} is already served`);
    }
    this.assignmentSinks.set(worker, sink);
    const groupId = `coordinate-node-worker-${worker}-${Math.random().toString(36).slice(2, 10)}`;
    try {
      const reader = await withTimeout(
        this.#read(groupId, this.topics.assignments, worker, (message) => {
          if (message.key?.toString() !== worker) return;
          const value = parse(message.value);
          if (value !== null) sink(value);
        }),
        this.timeoutMs,
        `reading the assignments of ${worker}`,
      );
      this.readers.set(worker, reader);
    } catch (error) {
      this.assignmentSinks.delete(worker);
      throw error;
    }
  }

  async stopWatching(worker) {
    this.assignmentSinks.delete(worker);
    const reader = this.readers.get(worker);
    this.readers.delete(worker);
    await reader?.close();
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    const deadline = Date.now() + this.timeoutMs;
    while (this.sending && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5)); // what was queued before the close still goes out
    }
    for (const waiter of this.waiting.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error('client closed'));
    }
    this.waiting.clear();
    const readers = [...this.readers.values(), this.repliesReader].filter(Boolean);
    this.readers.clear();
    await Promise.allSettled(readers.map((reader) => reader.close()));
    await Promise.allSettled([this.producer?.disconnect(), this.admin?.disconnect()]);
  }
}

function parse(buffer) {
  try {
    const value = JSON.parse(buffer.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}
