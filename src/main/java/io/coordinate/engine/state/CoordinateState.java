package io.coordinate.engine.state;

/**
 * The state as a command changes it: each module's transition methods keep every index and counter of its
 * aggregate right for the change and tell the {@link StateListener}; nothing else writes to the store. Only the
 * engine's entry point holds it whole, within the command's transaction (which sets the listener and writes what
 * the modules keep in memory); handlers, job trees and replication get the modules they use.
 */
public interface CoordinateState extends StateReader {

    @Override
    MutableNamespaceState namespaces();

    @Override
    MutableSpecState specs();

    @Override
    MutableUnitState units();

    @Override
    MutableAttemptState attempts();

    @Override
    MutableWorkerState workers();

    @Override
    MutableTimeIndexState timeIndexes();

    @Override
    MutableAnswerState answers();
}
