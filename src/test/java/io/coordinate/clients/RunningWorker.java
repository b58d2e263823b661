package io.coordinate.clients;

/** A worker of the suite, running for one scenario. */
interface RunningWorker {

    /** What a worker counted: the attempts it finished and failed; null where its kind does not tell. */
    record Counters(long finished, long failed) {}

    /** Stops it gracefully (close, or SIGTERM) and waits for its end; answers its counters. */
    Counters stop() throws Exception;
}
