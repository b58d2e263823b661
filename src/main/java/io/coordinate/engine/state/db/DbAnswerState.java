package io.coordinate.engine.state.db;

import io.coordinate.engine.state.MutableAnswerState;
import io.coordinate.engine.state.codec.AnswerKeys;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.Answer;

/** Kept answers, each with its entry in the expiry index. */
final class DbAnswerState implements MutableAnswerState {

    private final DbContext db;

    DbAnswerState(DbContext db) {
        this.db = db;
    }

    @Override
    public Answer get(String ns, String requester, String type, String requestId, long now) {
        Answer answer = Answer.decode(db.store.get(AnswerKeys.answer(ns, requester, type, requestId)));
        return answer == null || answer.expiresAt() <= now ? null : answer;
    }

    @Override
    public void record(String ns, String requester, String type, String requestId, Answer answer) {
        byte[] key = AnswerKeys.answer(ns, requester, type, requestId);
        byte[] before = db.store.get(key);
        if (before != null) {
            db.writable.delete(AnswerKeys.answerExpiry(Answer.expiresAt(before), ns, requester, type, requestId));
        }
        db.writable.put(key, answer.encode());
        putExpiry(new AnswerKeys.AnswerKey(answer.expiresAt(), ns, requester, type, requestId));
    }

    /** The expiry entry of a kept answer, derived again by {@link IndexRebuild}. */
    void deriveExpiry(byte[] answerKey, byte[] stored) {
        putExpiry(AnswerKeys.parseAnswer(answerKey, Answer.expiresAt(stored)));
    }

    private void putExpiry(AnswerKeys.AnswerKey answer) {
        db.writable.put(answer.expiryKey(), ValueCodec.EMPTY);
        if (db.hints != null) {
            db.hints.answerInserted(answer.expiresAt());
        }
    }

    /** Its expiry entry goes; the answer too, if it is the one the entry names and not one kept since. */
    @Override
    public void forget(AnswerKeys.AnswerKey due) {
        byte[] key = due.answerKey();
        byte[] stored = db.store.get(key);
        if (stored != null && Answer.expiresAt(stored) == due.expiresAt()) {
            db.writable.delete(key);
        }
        db.writable.delete(due.expiryKey());
    }
}
