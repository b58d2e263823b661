"""The Kafka side of a client: one producer of commands, and one read_committed consumer assigned only the
partitions it needs (this client's replies partition, and the assignments partition of each worker it serves),
never subscribed, nothing committed (docs/client.md, "Reading assignments and replies from any language").

One daemon thread polls; it also answers waiting calls, fails those past their timeout, and serves the producer's
delivery reports.
"""

from __future__ import annotations

import heapq
import itertools
import json
import logging
import queue
import socket
import threading
import time
import uuid
from concurrent.futures import Future
from typing import Any, Callable

from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition

from .errors import CoordinateUnreachable
from .partitioner import partition

LOG = logging.getLogger("coordinate")
POLL_SECONDS = 0.05


class Connection:
    def __init__(self, bootstrap_servers: str, kafka_config: dict | None, reply_to: str, timeout: float,
                 topic_prefix: str = ""):
        self.reply_to = reply_to
        self.timeout = timeout
        self.commands_topic = topic_prefix + "coordinate.commands"
        self.replies_topic = topic_prefix + "coordinate.replies"
        self.assignments_topic = topic_prefix + "coordinate.assignments"
        self._reply_key = reply_to.encode("utf-8")
        self._ids = itertools.count(1)
        self._id_prefix = uuid.uuid4().hex[:12] + "-"
        self._waiting: dict[str, Future] = {}
        self._deadlines: list[tuple[float, str]] = []
        self._deadlines_lock = threading.Lock()
        self._sinks: dict[bytes, Callable[[dict], None]] = {}
        self._watches: queue.SimpleQueue = queue.SimpleQueue()
        self._running = True
        config = {"bootstrap.servers": bootstrap_servers, **(kafka_config or {})}
        unreachable = _unreachable(config["bootstrap.servers"], min(timeout, 5.0))
        if unreachable:
            raise CoordinateUnreachable(f"cannot reach Kafka at {config['bootstrap.servers']}: {unreachable}")
        self._producer = Producer({
            **config,
            "enable.idempotence": True,
            "acks": "all",
            "linger.ms": config.get("linger.ms", 1),
        })
        self._consumer = Consumer({
            **config,
            # confluent-kafka refuses to start without a group id; nothing is committed under it.
            "group.id": config.get("group.id", reply_to),
            "enable.auto.commit": False,
            "isolation.level": "read_committed",  # an aborted transaction must not answer
            "auto.offset.reset": "latest",
        })
        try:
            replies = self._end_of(self.replies_topic, reply_to)
            self._assignment_partitions = self._partition_count(self.assignments_topic)
            self._command_partitions = self._partition_count(self.commands_topic)
            self._consumer.assign([replies])
        except KafkaException as e:
            self._close_quietly()
            raise CoordinateUnreachable(f"cannot reach Kafka at {bootstrap_servers}: {e}") from e
        except CoordinateUnreachable:
            self._close_quietly()
            raise
        self._thread = threading.Thread(target=self._poll, name=f"coordinate-client-{reply_to}", daemon=True)
        self._thread.start()

    # --- sending

    def call(self, namespace: str, command: dict[str, Any], timeout: float | None = None) -> Future:
        """Sends a command with this client's reply_to; the future gets the whole reply (ok, result or error).

        A command without a request_id gets a fresh one, which matches the reply; one with its own keeps it, and a
        fresh correlation_id matches the reply instead.
        """
        waiter_id = self._id_prefix + str(next(self._ids))
        command["namespace"] = namespace
        if command.get("request_id") is None:
            command["request_id"] = waiter_id
            command.pop("correlation_id", None)
        else:
            command["correlation_id"] = waiter_id
        command["reply_to"] = self.reply_to
        reply: Future = Future()
        if not self._running:
            reply.set_exception(RuntimeError("client closed"))
            return reply
        self._waiting[waiter_id] = reply
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        with self._deadlines_lock:
            heapq.heappush(self._deadlines, (deadline, waiter_id))
        try:
            self.send(namespace, command)
        except Exception as e:  # a full queue or a closed producer: fail now, not at the timeout
            self._waiting.pop(waiter_id, None)
            reply.set_exception(e)
        return reply

    def send(self, namespace: str, command: dict[str, Any]) -> None:
        """Sends a command that expects no reply here (a worker's request_attempts is answered on its assignments)."""
        command["namespace"] = namespace
        value = json.dumps(command, separators=(",", ":"))
        while True:
            try:
                # the partition Kafka's Java producer picks, as the app expects: librdkafka's default (CRC32) would put
                # the command elsewhere, and the app would have to move it, a second record and a later answer
                self._producer.produce(
                    self.commands_topic, value, namespace, partition=partition(namespace, self._command_partitions))
                return
            except BufferError:  # the producer's queue is full: let it drain
                self._producer.poll(0.05)

    def flush(self, timeout: float = 10.0) -> None:
        self._producer.flush(timeout)

    # --- assignments of workers

    def watch(self, worker: str, sink: Callable[[dict], None]) -> Future:
        """Reads the assignments of ``worker`` from its partition, from the end now, handing each record to ``sink``
        on the polling thread. The future completes once the read position is fixed: request work only after."""
        key = worker.encode("utf-8")
        if key in self._sinks:
            raise ValueError(f"worker {worker!r} is watched already")
        self._sinks[key] = sink
        done: Future = Future()
        self._watches.put((worker, done))
        return done

    def unwatch(self, worker: str) -> None:
        self._sinks.pop(worker.encode("utf-8"), None)

    # --- the polling thread

    def _poll(self) -> None:
        consumer = self._consumer
        reply_key = self._reply_key
        replies_topic = self.replies_topic
        waiting = self._waiting
        sinks = self._sinks
        next_sweep = 0.0
        try:
            while self._running:
                if not self._watches.empty():
                    self._apply_watches()
                for message in consumer.consume(1000, POLL_SECONDS):
                    if message.error() is not None:
                        continue
                    key = message.key()
                    if message.topic() == replies_topic:
                        if key != reply_key:
                            continue
                        value = _parse(message.value())
                        if not isinstance(value, dict):
                            continue
                        waiter_id = value.get("correlation_id")
                        if not isinstance(waiter_id, str):
                            waiter_id = value.get("request_id")
                        waiter = waiting.pop(waiter_id, None)
                        if waiter is not None and not waiter.done():
                            waiter.set_result(value)
                    else:
                        sink = sinks.get(key)
                        if sink is not None:
                            value = _parse(message.value())
                            if isinstance(value, dict):
                                try:
                                    sink(value)
                                except Exception:
                                    LOG.exception("an assignment handler failed")
                self._producer.poll(0)
                now = time.monotonic()
                if now >= next_sweep:
                    self._fail_overdue(now)
                    next_sweep = now + 0.05
        except Exception as e:
            LOG.exception("the client's consumer stopped; waiting calls fail")
            for waiter in list(waiting.values()):
                if not waiter.done():
                    waiter.set_exception(e)
        finally:
            try:
                consumer.close()
            except Exception:
                pass

    def _apply_watches(self) -> None:
        added = []
        while not self._watches.empty():
            added.append(self._watches.get())
        try:
            fresh = [self._end_of(self.assignments_topic, worker, self._assignment_partitions) for worker, _ in added]
            current = {(tp.topic, tp.partition) for tp in self._consumer.assignment()}
            fresh = [tp for tp in fresh if (tp.topic, tp.partition) not in current]
            if fresh:
                self._consumer.incremental_assign(fresh)
            for _, done in added:
                done.set_result(None)
        except Exception as e:
            for _, done in added:
                done.set_exception(e)

    def _fail_overdue(self, now: float) -> None:
        overdue = []
        with self._deadlines_lock:
            while self._deadlines and self._deadlines[0][0] <= now:
                overdue.append(heapq.heappop(self._deadlines)[1])
        for waiter_id in overdue:
            waiter = self._waiting.pop(waiter_id, None)
            if waiter is not None and not waiter.done():
                waiter.set_exception(TimeoutError(f"no reply within {self.timeout} s"))

    # --- partitions

    def _end_of(self, topic: str, key: str, partitions: int | None = None) -> TopicPartition:
        """The partition of ``key``, at its end now: a seek to the end would be resolved later, after a fast answer
        may be there already."""
        count = partitions if partitions is not None else self._partition_count(topic)
        tp = TopicPartition(topic, partition(key, count))
        _, high = self._consumer.get_watermark_offsets(tp, timeout=self.timeout, cached=False)
        return TopicPartition(topic, tp.partition, high)

    def _partition_count(self, topic: str) -> int:
        metadata = self._consumer.list_topics(topic, timeout=self.timeout)
        info = metadata.topics.get(topic)
        if info is None or info.error is not None or not info.partitions:
            raise CoordinateUnreachable(
                f"topic {topic} does not exist (is the app set up on this cluster, with this topic prefix?)")
        return len(info.partitions)

    def close(self) -> None:
        try:
            self._producer.flush(10)
        finally:
            self._running = False
            if threading.current_thread() is not self._thread:
                self._thread.join(10)

    def _close_quietly(self) -> None:
        try:
            self._consumer.close()
        except Exception:
            pass


def _unreachable(bootstrap_servers: str, timeout: float) -> str | None:
    """Why none of the addresses takes a connection (nothing listens, an unknown host), or None when one does:
    without this, librdkafka would retry until the client's timeout."""
    problems = []
    for address in bootstrap_servers.split(","):
        host, _, port = address.strip().rpartition(":")
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout).close()
            return None
        except (OSError, ValueError) as e:
            problems.append(f"{address.strip()}: {e}")
    return "; ".join(problems)


def _parse(value: bytes | None) -> Any:
    if value is None:
        return None
    try:
        return json.loads(value)
    except ValueError:
        LOG.warning("ignoring a record that is not JSON")
        return None
