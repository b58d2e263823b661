package io.coordinate.engine.state;

/**
 * The state as the engine's handlers and the interactive queries read it: one read-only module per aggregate.
 * Every scan is bounded by a key range and, where it may be long, by a limit.
 */
public interface StateReader {

    NamespaceState namespaces();

    SpecState specs();

    UnitState units();

    AttemptState attempts();

    WorkerState workers();

    FamilyState family();

    TimeIndexState timeIndexes();

    AnswerState answers();
}
