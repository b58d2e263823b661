package io.coordinate.engine.state;

import io.coordinate.engine.state.model.Answer;

/** Answers kept for commands that carried a {@code request_id}, so that a repeat gets the same answer. */
public interface AnswerState {

    /** The kept answer, or null; one whose time is up ({@code expiresAt <= now}) counts as none. */
    Answer get(String ns, String requester, String type, String requestId, long now);
}
