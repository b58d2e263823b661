package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.client.HeldAttempts.Held;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link Handler} for the units of some work specs, {@code concurrency} at a time.
 *
 * <ul>
 *   <li>It asks for as many units as it has free slots (handlers, plus {@code prefetch}), once half of them are
 *       free or a free slot has waited 20 ms; a request reserves its slots until its answer comes, so several may
 *       be in flight. It reads its assignments from the partition of its own key of
 *       {@code coordinate.assignments}. A request not answered within the client's timeout (lost, or sent while the
 *       app was away) is sent again with the same {@code request_id}, so that the app answers it with the attempts
 *       it handed out the first time, if any, rather than new ones. When no work comes it waits before asking
 *       again, longer each time (from {@code minBackoff} doubling up to {@code maxBackoff}), and asks at once again
 *       after work came.
 *   <li>Each attempt's lease ({@code lease}, 30 s by default) is renewed at half its lifetime while the handler runs,
 *       so the units of a worker that died come back within one lease.
 *   <li>What the handler returns finishes the attempt, batched into {@code finish_attempts}; an exception fails it
 *       with the stack trace as {@code traceback} (a {@link FailAttemptException}, with its own data); a
 *       {@link RetryLaterException} gives the unit back for later.
 *   <li>{@link #close()} stops asking, lets running handlers end within {@code closeTimeout}, gives back the
 *       attempts of those that did not ({@code retry_attempt}), and deactivates the worker.
 * </ul>
 *
 * <p>Everything the worker decides happens on one thread, fed by a queue of events (assignments, handlers that
 * ended, replies), so its state needs no locks. Attempts go to the handler pool's queue as they come, and a free
 * handler takes the next one itself: with short handlers, a hand-off through the decision thread per attempt cost
 * more than the handlers.
 */
public final class Worker implements AutoCloseable {

  /** Works one attempt. Returns the data to finish it with (may be null). */
  @FunctionalInterface
  public interface Handler {
    Map<String, ?> handle(Attempt attempt) throws Exception;
  }

  private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
  private static final int MAX_TRACEBACK_CHARS = 16_384;
  /** How many requests sent more than once it remembers as answered, to drop the later answers' copies. */
  private static final int ANSWERED_REPEATS_KEPT = 1024;

  private final CoordinateClient client;
  private final boolean ownsClient;
  private final String name;
  private final List<String> workSpecs;
  private final int concurrency;
  private final int prefetch;
  private final Duration lease;
  private final Duration heartbeatInterval;
  private final Duration closeTimeout;
  private final int finishBatch;
  private final long finishLingerNanos;
  private final Handler handler;
  private final Map<String, ?> environment;

  private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final ExecutorService handlers;
  private final Thread loop;
  private final CompletableFuture<Void> stopped = new CompletableFuture<>();
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicLong finished = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong retried = new AtomicLong();
  private volatile boolean started;

  // Loop-thread state.
  private final HeldAttempts owned;
  private final List<CoordinateClient.Finish> finishes = new ArrayList<>();
  private final List<CompletableFuture<?>> lastCommands = new ArrayList<>();
  private long finishesSince;
  private final RequestPacer pacer;
  private long nextHeartbeatAt;
  /** Unique to this worker object: a worker of the same name started again must not repeat its ids. */
  private final String requestIdPrefix;
  private long requestSequence;
  private final Map<String, SentRequest> unanswered = new HashMap<>();
  private final Set<String> answeredRepeats = Collections.newSetFromMap(new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > ANSWERED_REPEATS_KEPT;
    }
  });
  private boolean stopping;
  private long stopDeadline;

  private sealed interface Event {}

  private record Assigned(JsonNode assignment) implements Event {}

  private record Ended(String attemptId, Map<String, ?> result, Throwable error) implements Event {}

  private record LeaseLost(String attemptId, String code) implements Event {}

  private record Stop(Duration timeout) implements Event {}

  /** A {@code request_attempts} not answered yet: sent again as it is when its answer is late. */
  private static final class SentRequest {
    final ObjectNode command;
    boolean repeated;

    SentRequest(ObjectNode command) {
      this.command = command;
    }
  }

  private Worker(Builder builder) {
    this.client = builder.client;
    this.ownsClient = builder.ownsClient;
    this.name = builder.name != null ? builder.name : defaultName();
    this.requestIdPrefix = name + "-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    this.workSpecs = List.copyOf(builder.workSpecs);
    this.concurrency = builder.concurrency;
    this.prefetch = builder.prefetch;
    this.lease = builder.lease;
    this.owned = new HeldAttempts(lease.toNanos() / 2);
    this.pacer = new RequestPacer(concurrency + prefetch, new Backoff(builder.minBackoff, builder.maxBackoff),
        client.timeout().toNanos(), System.nanoTime());
    this.heartbeatInterval = builder.heartbeatInterval;
    this.closeTimeout = builder.closeTimeout;
    this.finishBatch = builder.finishBatch;
    this.finishLingerNanos = builder.finishLinger.toNanos();
    this.handler = Objects.requireNonNull(builder.handler, "handler");
    Map<String, Object> env = new LinkedHashMap<>();
    env.put("host", hostName());
    env.put("pid", ProcessHandle.current().pid());
    env.put("concurrency", concurrency);
    env.put("work_specs", workSpecs);
    env.putAll(builder.environment);
    this.environment = env;
    AtomicInteger threads = new AtomicInteger();
    this.handlers = Executors.newFixedThreadPool(concurrency, runnable -> {
      Thread thread = new Thread(runnable, name + "-handler-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    this.loop = new Thread(this::run, name + "-loop");
    loop.setDaemon(true);
  }

  public static Builder builder(CoordinateClient client) {
    return new Builder(client, false);
  }

  /** The worker's name: its key on {@code coordinate.assignments}, and its worker record in the app. */
  public String name() {
    return name;
  }

  /**
   * Starts working: fixes the read position of its assignments, checks in with a heartbeat, and asks for work.
   * Returns once it has started (the heartbeat's reply is not awaited).
   */
  public Worker start() {
    if (started) {
      throw new IllegalStateException("worker " + name + " already started");
    }
    started = true;
    try {
      client.connection()
          .watchAssignments(name, assignment -> events.add(new Assigned(assignment)))
          .get(client.timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      throw new CoordinateException("worker " + name + " could not read its assignments: " + e.getMessage(), e);
    }
    loop.start();
    return this;
  }

  /** Units finished (by the app's count: items of {@code finish_attempts} that it applied). */
  public long finished() {
    return finished.get();
  }

  /** Attempts failed because the handler threw. */
  public long failed() {
    return failed.get();
  }

  /** Attempts given back: the handler asked to retry later, or it was still running at {@link #close()}. */
  public long retried() {
    return retried.get();
  }

  /** {@code request_attempts} commands sent so far. */
  public int requests() {
    return requests.get();
  }

  /** Completes once the worker has stopped after {@link #close()}. */
  public CompletableFuture<Void> stopped() {
    return stopped;
  }

  /** Stops gracefully (see the class comment), waiting up to the close timeout for running handlers. */
  @Override
  public void close() {
    if (!started) {
      return;
    }
    events.add(new Stop(closeTimeout));
    try {
      stopped.get(closeTimeout.toMillis() + client.timeout().toMillis() + 5_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.warn("worker {} did not stop cleanly: {}", name, e.toString());
    } finally {
      client.connection().stopWatching(name);
      handlers.shutdownNow();
      if (ownsClient) {
        client.close();
      }
    }
  }

  private void run() {
    long now = System.nanoTime();
    nextHeartbeatAt = now;
    try {
      while (true) {
        now = System.nanoTime();
        act(now);
        // An answer still on its way would hold attempts nobody gives back: wait for it, up to the deadline.
        if (stopping && owned.isEmpty() && (!pacer.awaitsAnswers() || now >= stopDeadline)) {
          break;
        }
        Event event = events.poll(Math.max(0, nextWakeUp(now) - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (event != null) {
          handle(event, System.nanoTime());
        }
      }
      finish();
      stopped.complete(null);
    } catch (Throwable e) {
      LOG.error("worker {} stopped on an error", name, e);
      stopped.completeExceptionally(e);
    }
  }

  /** Everything due now: heartbeats, renewals, starting queued attempts, finishing, asking for work. */
  private void act(long now) {
    if (!stopping && now >= nextHeartbeatAt) {
      heartbeat();
      nextHeartbeatAt = now + heartbeatInterval.toNanos();
    }
    renewDue(now);
    if (stopping) {
      boolean pastDeadline = now >= stopDeadline;
      for (Held held : owned.all()) {
        if (held.withdraw()) { // never started: give it back now
          owned.remove(held.attempt.attemptId());
          giveBack(held.attempt, "the worker stopped before it started");
        } else if (pastDeadline) {
          held.task.cancel(true);
          owned.remove(held.attempt.attemptId());
          giveBack(held.attempt, "the worker stopped while it ran");
        }
      }
    }
    if (!finishes.isEmpty()
        && (finishes.size() >= finishBatch || owned.isEmpty() || now - finishesSince >= finishLingerNanos)) {
      flushFinishes();
    }
    for (String requestId : pacer.overdue(now)) {
      LOG.warn("worker {}: no assignment for request {} in {}; sending it again", name, requestId, client.timeout());
      SentRequest request = unanswered.get(requestId);
      request.repeated = true;
      send(request.command);
    }
    int count = pacer.toAsk(owned.size(), now);
    if (!stopping && count > 0) {
      requestWork(count, now);
    }
  }

  private long nextWakeUp(long now) {
    long wake = now + TimeUnit.SECONDS.toNanos(1);
    if (!stopping) {
      wake = Math.min(wake, Math.min(nextHeartbeatAt, pacer.nextWakeUp(owned.size(), now)));
    } else {
      wake = Math.min(wake, stopDeadline);
    }
    if (!finishes.isEmpty()) {
      wake = Math.min(wake, finishesSince + finishLingerNanos);
    }
    return Math.min(wake, owned.nextRenewal());
  }

  private void handle(Event event, long now) {
    if (event instanceof Assigned assigned) {
      onAssignment(Assignment.from(assigned.assignment()), now);
    } else if (event instanceof Ended ended) {
      onEnded(ended);
    } else if (event instanceof LeaseLost lost) {
      Held held = owned.get(lost.attemptId());
      if (held != null) {
        LOG.warn("worker {}: lost the lease of attempt {} ({}); its handler is interrupted", name,
            lost.attemptId(), lost.code());
        if (held.withdraw()) { // still queued: never start it
          owned.remove(lost.attemptId());
        } else {
          held.lost = true;
          held.task.cancel(true);
        }
      }
    } else if (event instanceof Stop stop) {
      stopping = true;
      stopDeadline = now + stop.timeout().toNanos();
    }
  }

  private void onAssignment(Assignment assignment, long now) {
    String requestId = assignment.requestId();
    if (requestId != null && answeredRepeats.contains(requestId)) {
      return; // the answer to another copy of a request sent again: the first answer was taken already
    }
    SentRequest request = requestId == null ? null : unanswered.remove(requestId);
    if (request != null && request.repeated) {
      answeredRepeats.add(requestId);
    }
    pacer.answered(requestId, assignment.attempts().isEmpty(), now);
    for (Attempt attempt : assignment.attempts()) {
      if (owned.contains(attempt.attemptId())) {
        continue; // a repeated request's answer names the attempts it already handed out
      }
      if (stopping) {
        giveBack(attempt, "the worker stopped before it started");
        continue;
      }
      submit(owned.add(attempt, now));
    }
  }

  private void onEnded(Ended ended) {
    Held held = owned.remove(ended.attemptId());
    if (held == null) {
      return; // given back at the stop deadline already
    }
    if (held.lost) {
      return; // the app no longer takes this attempt's outcome
    }
    if (ended.error() == null) {
      if (finishes.isEmpty()) {
        finishesSince = System.nanoTime();
      }
      finishes.add(new CoordinateClient.Finish(ended.attemptId(), ended.result()));
    } else if (ended.error() instanceof RetryLaterException retry) {
      retried.incrementAndGet();
      track(client.retryAttempt(ended.attemptId(), Map.of("traceback", String.valueOf(retry.getMessage())),
          retry.delay()), ended.attemptId(), "retry");
    } else if (interrupted(ended.error())) {
      // Stopping the worker or its JVM is no fault of the unit: another worker runs it again.
      giveBack(held.attempt, "the handler was interrupted: " + ended.error());
    } else {
      failed.incrementAndGet();
      Map<String, ?> data = ended.error() instanceof FailAttemptException fail
          ? fail.data()
          : Map.of("traceback", traceback(ended.error()));
      track(client.failAttempt(ended.attemptId(), data), ended.attemptId(), "fail");
    }
  }

  /** Queues the attempt in the handler pool, whose next free handler runs it unless it was withdrawn first. */
  private void submit(Held held) {
    Attempt attempt = held.attempt;
    held.task = handlers.submit(() -> {
      if (!held.claim()) {
        return; // given back before a handler came to it
      }
      Map<String, ?> result = null;
      Throwable error = null;
      try {
        result = handler.handle(attempt);
      } catch (Throwable e) {
        error = e;
      }
      events.add(new Ended(attempt.attemptId(), result, error));
    });
  }

  private void requestWork(int count, long now) {
    flushFinishes(); // report what is done before asking for more
    String requestId = requestIdPrefix + (++requestSequence);
    AttemptRequest.Builder request =
        AttemptRequest.forWorker(name).count(count).lifetime(lease).requestId(requestId);
    if (!workSpecs.isEmpty()) {
      request.workSpecs(workSpecs);
    }
    ObjectNode command = request.build().json();
    pacer.asked(requestId, count, now);
    unanswered.put(requestId, new SentRequest(command));
    send(command);
  }

  /** Sends a request; one that does not reach the app is sent again once its answer is overdue. */
  private void send(ObjectNode command) {
    requests.incrementAndGet();
    client.connection().send(client.namespace(), command).whenComplete((ok, e) -> {
      if (e != null) {
        LOG.warn("worker {}: could not send request_attempts: {}", name, e.toString());
      }
    });
  }

  private void flushFinishes() {
    if (finishes.isEmpty()) {
      return;
    }
    List<CoordinateClient.Finish> batch = List.copyOf(finishes);
    finishes.clear();
    CompletableFuture<FinishedAttempts> reply = client.finishAttempts(batch);
    lastCommands.add(reply);
    reply.whenComplete((result, e) -> {
      if (e != null) {
        LOG.warn("worker {}: finish_attempts of {} attempts got no answer: {}", name, batch.size(), e.toString());
        return;
      }
      finished.addAndGet(result.finished());
      for (FinishedAttempts.Refused refused : result.errors()) {
        LOG.warn("worker {}: finishing attempt {} was refused: {} {}", name, refused.attemptId(), refused.code(),
            refused.message());
      }
    });
    pruneLastCommands();
  }

  private void renewDue(long now) {
    owned.dueForRenewal(now).forEach(this::renew);
  }

  private void renew(Held held) {
    String attemptId = held.attempt.attemptId();
    client.renewAttempt(attemptId, lease, null).whenComplete((info, e) -> {
      Throwable cause = e == null ? null : e.getCause() != null ? e.getCause() : e;
      if (cause instanceof CommandRefusedException refused) {
        events.add(new LeaseLost(attemptId, refused.code()));
      } else if (cause != null) {
        LOG.warn("worker {}: renewing attempt {} got no answer: {}", name, attemptId, cause.toString());
      }
    });
  }

  private void heartbeat() {
    Duration expire = heartbeatInterval.multipliedBy(3);
    client.workerHeartbeat(name, null, "run", environment, expire).whenComplete((info, e) -> {
      if (e != null) {
        LOG.warn("worker {}: heartbeat got no answer: {}", name, e.toString());
      }
    });
  }

  private void giveBack(Attempt attempt, String why) {
    retried.incrementAndGet();
    track(client.retryAttempt(attempt.attemptId(), Map.of("traceback", why), Duration.ZERO), attempt.attemptId(),
        "give back");
  }

  private void track(CompletableFuture<?> reply, String attemptId, String what) {
    lastCommands.add(reply);
    reply.whenComplete((r, e) -> {
      if (e != null) {
        LOG.warn("worker {}: {} of attempt {}: {}", name, what, attemptId, e.toString());
      }
    });
    pruneLastCommands();
  }

  private void pruneLastCommands() {
    lastCommands.removeIf(CompletableFuture::isDone);
  }

  /** After the stop: reports the last finishes, deactivates, and waits for the app to have taken them. */
  private void finish() {
    flushFinishes();
    lastCommands.add(client.deactivateWorker(name));
    try {
      CompletableFuture.allOf(lastCommands.toArray(CompletableFuture[]::new))
          .get(client.timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.warn("worker {}: not every last command was answered: {}", name, e.toString());
    }
  }

  /**
   * Whether a handler ended because its thread was interrupted: an {@link InterruptedException} or an interrupted
   * channel anywhere in the causes (a read timeout, also an {@code InterruptedIOException}, is a real failure).
   */
  static boolean interrupted(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof InterruptedException || cause instanceof java.nio.channels.ClosedByInterruptException
          || cause.getClass() == java.io.InterruptedIOException.class) {
        return true;
      }
    }
    return false;
  }

  static String traceback(Throwable error) {
    StringWriter text = new StringWriter();
    error.printStackTrace(new PrintWriter(text));
    String trace = text.toString();
    return trace.length() <= MAX_TRACEBACK_CHARS ? trace : trace.substring(0, MAX_TRACEBACK_CHARS);
  }

  private static String defaultName() {
    return hostName() + "-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return ManagementFactory.getRuntimeMXBean().getName();
    }
  }

  /** Configures a {@link Worker}; only the handler is required. */
  public static final class Builder {
    private final CoordinateClient client;
    private final boolean ownsClient;
    private String name;
    private final List<String> workSpecs = new ArrayList<>();
    private int concurrency = 1;
    private int prefetch;
    private Duration lease = Duration.ofSeconds(30);
    private Duration minBackoff = Duration.ofMillis(100);
    private Duration maxBackoff = Duration.ofSeconds(5);
    private Duration heartbeatInterval = Duration.ofSeconds(30);
    private Duration closeTimeout = Duration.ofSeconds(30);
    private int finishBatch = 100;
    private Duration finishLinger = Duration.ofMillis(20);
    private Handler handler;
    private final Map<String, Object> environment = new LinkedHashMap<>();

    private Builder(CoordinateClient client, boolean ownsClient) {
      this.client = Objects.requireNonNull(client, "client");
      this.ownsClient = ownsClient;
    }

    /** The worker's name (default {@code <host>-<pid>-<random>}); unique among running workers. */
    public Builder name(String name) {
      this.name = name;
      return this;
    }

    /** Only units of these specs (default: any spec of the namespace). */
    public Builder workSpecs(String... names) {
      workSpecs.addAll(List.of(names));
      return this;
    }

    /** How many handlers run at once (default 1). */
    public Builder concurrency(int concurrency) {
      if (concurrency < 1) {
        throw new IllegalArgumentException("concurrency must be at least 1: " + concurrency);
      }
      this.concurrency = concurrency;
      return this;
    }

    /**
     * How many attempts to hold beyond the running ones, queued for the next free handler (default 0). Their leases
     * run (and are renewed) while they wait, and other workers cannot get them: worth it only when handlers are
     * much quicker than a round trip to the app, as for many small units.
     */
    public Builder prefetch(int prefetch) {
      if (prefetch < 0) {
        throw new IllegalArgumentException("prefetch must not be negative: " + prefetch);
      }
      this.prefetch = prefetch;
      return this;
    }

    /** The lease asked for, renewed at half its lifetime while a handler runs (default 30 s). */
    public Builder lease(Duration lease) {
      if (lease.toMillis() < 1000) {
        throw new IllegalArgumentException("a lease is at least 1 s: " + lease);
      }
      this.lease = lease;
      return this;
    }

    /** How long to wait after an empty answer: from {@code min} (100 ms), doubling up to {@code max} (5 s). */
    public Builder backoff(Duration min, Duration max) {
      this.minBackoff = min;
      this.maxBackoff = max;
      return this;
    }

    /** How often to check in (default 30 s; the worker shows expired after three missed). */
    public Builder heartbeatInterval(Duration interval) {
      this.heartbeatInterval = interval;
      return this;
    }

    /** How long {@link Worker#close()} lets running handlers end before giving their units back (30 s). */
    public Builder closeTimeout(Duration timeout) {
      this.closeTimeout = timeout;
      return this;
    }

    /** Finishes go out in batches of up to {@code size}, held at most {@code linger} (100, 20 ms). */
    public Builder finishBatching(int size, Duration linger) {
      this.finishBatch = size;
      this.finishLinger = linger;
      return this;
    }

    /** Extra fields of the environment sent with each heartbeat (host, pid and concurrency are sent anyway). */
    public Builder environment(String key, Object value) {
      environment.put(key, value);
      return this;
    }

    public Builder handler(Handler handler) {
      this.handler = handler;
      return this;
    }

    public Worker build() {
      return new Worker(this);
    }
  }
}
