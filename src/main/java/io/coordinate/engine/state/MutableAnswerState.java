package io.coordinate.engine.state;

import io.coordinate.engine.state.codec.AnswerKeys;
import io.coordinate.engine.state.model.Answer;

public interface MutableAnswerState extends AnswerState {

    /** Keeps the answer until {@code answer.expiresAt()}; one kept under the same key before is replaced. */
    void record(String ns, String requester, String type, String requestId, Answer answer);

    /** The time step: forgets an answer whose time is up. */
    void forget(AnswerKeys.AnswerKey due);
}
