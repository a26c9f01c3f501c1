package dev.taskgov.core.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.module.SimpleModule;
import dev.taskgov.core.model.Violation;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The one JSON configuration of taskgov: every record that crosses Kafka or HTTP between taskgov's
 * parts (and scenario files) is read and written here. Times are ISO-8601 strings
 * ({@code 2026-11-30T10:00:00Z}); numbers stay exact (BigDecimal); null fields are left out when
 * writing. Reading is strict (see {@code newMapper}) except that unknown fields are ignored; an
 * error names the JSON path of the field ({@link EventFormatException#path()}).
 */
public final class EventCodec {

    /** Records whose fields are a closed set: an unknown field is refused, not ignored. */
    private static final Set<Class<?>> CLOSED_SHAPES = Set.of(ResourceAmounts.class);

    private static final ObjectMapper MAPPER = newMapper();

    private EventCodec() {
    }

    /** A mapper configured for taskgov's JSON; safe to share. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    private static ObjectMapper newMapper() {
        SimpleModule time = new SimpleModule("taskgov-time");
        time.addSerializer(Instant.class, new JsonSerializer<>() {
            @Override
            public void serialize(Instant value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
                writeInstant(value, gen);
            }
        });
        time.addDeserializer(Instant.class, new JsonDeserializer<>() {
            @Override
            public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
                String s = p.getValueAsString();
                try {
                    return s == null ? null : InstantText.parse(s);
                } catch (DateTimeParseException e) {
                    throw JsonMappingException.from(p, "must be an ISO-8601 instant such as 2026-11-30T10:00:00Z, was '" + s + "'");
                }
            }
        });
        ObjectMapper mapper = JsonMapper.builder()
                .addModule(time)
                // Fields a later version adds are ignored, so producers can move first; except in
                // closed sets, where an unknown name is a mistake (CLOSED_SHAPES).
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
                .addHandler(new DeserializationProblemHandler() {
                    @Override
                    public boolean handleUnknownProperty(DeserializationContext ctxt, JsonParser p, JsonDeserializer<?> deserializer,
                                                         Object beanOrClass, String propertyName) throws IOException {
                        Class<?> type = beanOrClass instanceof Class<?> c ? c : beanOrClass.getClass();
                        if (CLOSED_SHAPES.contains(type)) return false;
                        p.skipChildren();
                        return true;
                    }
                })
                .configure(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS, true)
                .configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false)
                // Strict where a lenient reading would change the meaning: "count": 1.5 is not 1,
                // "count": "3" is not a number, {..}xyz is not one value, {"a":1,"a":2} is not one
                // object, an unknown enum name is not some other value. (A missing or null primitive
                // still reads as 0: changelog records written before a field existed must restore.)
                .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false)
                .configure(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, true)
                .configure(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL, false)
                .configure(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS, true)
                .configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false)
                .configure(StreamReadFeature.STRICT_DUPLICATE_DETECTION, true)
                .serializationInclusion(JsonInclude.Include.NON_NULL)
                .build();
        // Text is never a number or a boolean, and a number or a boolean is never text (a whole
        // number is a fine decimal, though: "accelerators": 8).
        for (LogicalType numeric : List.of(LogicalType.Integer, LogicalType.Float)) {
            mapper.coercionConfigFor(numeric)
                    .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        }
        mapper.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Boolean)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Enum).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        return mapper;
    }

    /**
     * Reads one event.
     *
     * @throws EventFormatException naming the JSON field that does not parse
     */
    public static <T> T read(String json, Class<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw EventFormatException.of(e);
        }
    }

    /** Reads one event from UTF-8 bytes. */
    public static <T> T read(byte[] json, Class<T> type) {
        return read(new String(json, StandardCharsets.UTF_8), type);
    }

    /** Converts a parsed tree into an event. */
    public static <T> T read(JsonNode json, Class<T> type) {
        try {
            return MAPPER.treeToValue(json, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw e instanceof JsonProcessingException jpe ? EventFormatException.of(jpe)
                    : new EventFormatException("$", e.getMessage());
        }
    }

    /**
     * Reads one record value into a contract record, as a {@link Translation}: a value that is not the record at
     * all (not JSON, not an object, trailing bytes, JSON null) is {@link Translation.Kind#UNREADABLE} with the reason
     * {@code unreadable <Type>: $: ...}; a field of the wrong type is {@link Translation.Kind#INVALID}, naming the
     * field's JSON path.
     */
    public static <T> Translation<T> translate(byte[] json, Class<T> type) {
        String unreadable = "unreadable " + type.getSimpleName();
        if (json == null) {
            return new Translation.Refused<>(Translation.Kind.UNREADABLE, unreadable, List.of(new Violation("$", "the record has no value")));
        }
        T value;
        try {
            value = read(json, type);
        } catch (EventFormatException e) {
            Translation.Kind kind = e.path().equals("$") ? Translation.Kind.UNREADABLE : Translation.Kind.INVALID;
            return new Translation.Refused<>(kind, kind == Translation.Kind.UNREADABLE ? unreadable : null,
                    List.of(new Violation(e.path(), e.problem())));
        }
        if (value == null) {
            return new Translation.Refused<>(Translation.Kind.UNREADABLE, unreadable,
                    List.of(new Violation("$", "must be a " + type.getSimpleName() + " object, was null")));
        }
        return Translation.translated(value);
    }

    /**
     * Parses JSON that translators read field by field (the SageMaker-shaped quota records); same strictness
     * as {@link #read}: one value, no duplicate keys.
     *
     * @throws EventFormatException when the bytes are not one JSON value, or there are none
     */
    static JsonNode tree(byte[] json) {
        if (json == null || json.length == 0) throw new EventFormatException("$", "the record has no value");
        try {
            JsonNode node = MAPPER.readTree(json);
            if (node == null || node.isMissingNode()) throw new EventFormatException("$", "the record value is empty");
            return node;
        } catch (JsonProcessingException e) {
            throw EventFormatException.of(e);
        } catch (java.io.IOException e) {
            throw new EventFormatException("$", e.getMessage());
        }
    }

    /**
     * Writes an event as UTF-8 JSON bytes (a Kafka record value). The JSON is written into a buffer the thread keeps
     * ({@link Output}), and only the record's own bytes are copied out: a busy decider encodes thousands of records a
     * second, and the buffers Jackson made per record were a large share of what it allocated, so of its collections.
     */
    public static byte[] bytes(Object event) {
        Output out = OUTPUT.get();
        if (out.inUse) return bytesAlone(event); // a serializer encoding another record while this one is written
        out.inUse = true;
        try (JsonGenerator g = MAPPER.createGenerator(out.reset(), JsonEncoding.UTF8)) {
            MAPPER.writeValue(g, event);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + event.getClass().getSimpleName(), e);
        } finally {
            out.inUse = false;
        }
        return out.takeBytes();
    }

    private static byte[] bytesAlone(Object event) {
        try {
            return MAPPER.writeValueAsBytes(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + event.getClass().getSimpleName(), e);
        }
    }

    private static final ThreadLocal<Output> OUTPUT = ThreadLocal.withInitial(Output::new);

    /**
     * A thread's buffer for {@link #bytes}: kept between records, given back to the heap when one was very large; and
     * the thread's buffer for an instant's text ({@link #writeInstant}), which the generator copies at once.
     */
    private static final class Output extends OutputStream {
        private static final int INITIAL = 8 * 1024;
        /** A record larger than this leaves a buffer of {@link #INITIAL} behind rather than one of its size. */
        private static final int LARGEST_KEPT = 256 * 1024;
        private byte[] bytes = new byte[INITIAL];
        private int count;
        private boolean inUse;
        final byte[] instantText = new byte[InstantText.MAX_ASCII_LENGTH];

        Output reset() {
            count = 0;
            return this;
        }

        byte[] takeBytes() {
            byte[] copy = Arrays.copyOf(bytes, count);
            if (bytes.length > LARGEST_KEPT) bytes = new byte[INITIAL];
            return copy;
        }

        @Override
        public void write(int b) {
            ensure(1);
            bytes[count++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, bytes, count, len);
            count += len;
        }

        private void ensure(int more) {
            if (count + more > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(count + more, 2 * bytes.length));
        }
    }

    /**
     * An instant as its ISO-8601 string: into JSON written as UTF-8 straight from its ASCII bytes (it needs no
     * escaping), a changelog record holding about a dozen of them; through a string otherwise.
     */
    private static void writeInstant(Instant value, JsonGenerator gen) throws IOException {
        if (gen instanceof UTF8JsonGenerator) {
            byte[] text = OUTPUT.get().instantText;
            int length = InstantText.writeAscii(value, text);
            if (length >= 0) {
                gen.writeRawUTF8String(text, 0, length);
                return;
            }
        }
        gen.writeString(InstantText.format(value));
    }

    /** Writes an event as compact JSON. */
    public static String write(Object event) {
        try {
            return MAPPER.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + event.getClass().getSimpleName(), e);
        }
    }

    /** JSON that does not parse into the expected event; {@link #path()} names the field. */
    public static final class EventFormatException extends JsonPathException {

        public EventFormatException(String path, String problem) {
            super(path, problem);
        }

        static EventFormatException of(JsonProcessingException e) {
            String path = "$";
            if (e instanceof JsonMappingException m) {
                StringBuilder sb = new StringBuilder("$");
                for (JsonMappingException.Reference ref : m.getPath()) {
                    if (ref.getFieldName() != null) sb.append('.').append(ref.getFieldName());
                    else if (ref.getIndex() >= 0) sb.append('[').append(ref.getIndex()).append(']');
                }
                path = sb.toString();
            }
            return new EventFormatException(path, e.getOriginalMessage());
        }
    }
}
