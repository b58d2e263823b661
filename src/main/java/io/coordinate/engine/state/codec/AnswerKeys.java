package io.coordinate.engine.state.codec;

/**
 * The keys of the answers module: the kept answers of commands with a request_id ({@link KeyFamily#ANSWER}) and
 * their expiries ({@link KeyFamily#ANSWER_EXPIRIES}), which the time step reads from the front.
 */
public final class AnswerKeys {

    private AnswerKeys() {}

    /**
     * The answer of a command that carried a {@code request_id}: by its requester (the worker of a
     * {@code request_attempts}, the {@code reply_to} of any other command) and its type, so that two clients' ids
     * never meet.
     */
    public static byte[] answer(String ns, String requester, String type, String requestId) {
        return KeyPrefixes.namespace(ns, KeyFamily.ANSWER)
                .string(requester)
                .string(type)
                .string(requestId)
                .toBytes();
    }

    /** The names in an {@link #answer} key, with the expiry its record holds. */
    public static AnswerKey parseAnswer(byte[] key, long expiresAt) {
        KeyReader reader = new KeyReader(key, 1);
        String ns = reader.string();
        reader.tag();
        return new AnswerKey(expiresAt, ns, reader.string(), reader.string(), reader.string());
    }

    /** When the answer recorded under {@link #answer} expires. */
    public static byte[] answerExpiry(long expiresAt, String ns, String requester, String type, String requestId) {
        return KeyPrefixes.top(KeyFamily.ANSWER_EXPIRIES)
                .int64(expiresAt)
                .string(ns)
                .string(requester)
                .string(type)
                .string(requestId)
                .toBytes();
    }

    public static byte[] answerExpiriesStart() {
        return new byte[] {KeyFamily.ANSWER_EXPIRIES.tag()};
    }

    public static AnswerKey parseAnswerExpiry(byte[] key) {
        KeyReader reader = new KeyReader(key, 1);
        long time = reader.int64();
        return new AnswerKey(time, reader.string(), reader.string(), reader.string(), reader.string());
    }

    /** A parsed {@link #answerExpiry} key: the {@link #answer} it names and when it expires. */
    public record AnswerKey(long expiresAt, String namespace, String requester, String type, String requestId) {
        public byte[] answerKey() {
            return answer(namespace, requester, type, requestId);
        }

        public byte[] expiryKey() {
            return answerExpiry(expiresAt, namespace, requester, type, requestId);
        }
    }
}
