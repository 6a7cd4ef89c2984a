package org.sluice.cdc;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * A real Debezium producer of debezium-json: Debezium's embedded engine runs its MariaDB
 * connector against one database of a MariaDB server (an initial snapshot, then the binary
 * log), converts every change event's key and value with Kafka Connect's JsonConverter (with the
 * schema envelope or without it) and produces them, in order, to one Kafka topic for all the
 * database's tables, as a Kafka Connect worker with Debezium and a topic-routing transform would.
 *
 * <p>It stops once it reads the change event of a row inserted into the stop table (which it
 * does not produce), or fails at the deadline. Offsets and schema history live in memory: every
 * run starts with a snapshot.
 *
 * <pre>
 * java -cp target/sluice-debezium-producer-1.jar:target/lib/* org.sluice.cdc.DebeziumProducer
 *   --bootstrap 127.0.0.1:19092 --topic T --schemas-enable true|false
 *   [--decimal-format base64|numeric]
 *   --db-port 13306 --db-user sluice --db-password sluice --database D --server-id 1001
 *   --stop-table done [--ready-file F] [--timeout-s 300]
 * </pre>
 *
 * <p>--ready-file is created once the snapshot has been produced: changes made after that reach
 * the topic as binlog events (c, u, d), not as snapshot reads (r). The snapshot must hold a row.
 */
public final class DebeziumProducer {
  private static final String TOPIC_PREFIX = "sluice";

  private final Map<String, String> args;
  private final JsonConverter keyConverter = new JsonConverter();
  private final JsonConverter valueConverter = new JsonConverter();
  private final KafkaProducer<byte[], byte[]> producer;
  private final String topic;
  private final String stopTopic;
  private final Path readyFile;
  private final CountDownLatch done = new CountDownLatch(1);
  private final AtomicReference<String> failure = new AtomicReference<>();
  private long produced = 0;

  private DebeziumProducer(Map<String, String> args) {
    this.args = args;
    topic = required("topic");
    stopTopic = TOPIC_PREFIX + "." + required("database") + "." + required("stop-table");
    readyFile = args.containsKey("ready-file") ? Path.of(args.get("ready-file")) : null;
    // JsonConverter's own options: the schema envelope or not; DECIMAL as base64 of the unscaled
    // bytes (its default) or as a JSON number.
    Map<String, String> converterConfig =
        Map.of(
            "schemas.enable", required("schemas-enable"),
            "decimal.format", args.getOrDefault("decimal-format", "base64").toUpperCase());
    keyConverter.configure(converterConfig, true);
    valueConverter.configure(converterConfig, false);
    Properties config = new Properties();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, required("bootstrap"));
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    producer = new KafkaProducer<>(config);
  }

  private String required(String name) {
    String value = args.get(name);
    if (value == null) throw new IllegalArgumentException("missing --" + name);
    return value;
  }

  private Properties engineConfig() {
    Properties config = new Properties();
    config.setProperty("name", "sluice-debezium-producer");
    config.setProperty("connector.class", "io.debezium.connector.mariadb.MariaDbConnector");
    config.setProperty(
        "offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
    config.setProperty(
        "schema.history.internal", "io.debezium.relational.history.MemorySchemaHistory");
    config.setProperty("database.hostname", args.getOrDefault("db-host", "127.0.0.1"));
    config.setProperty("database.port", required("db-port"));
    config.setProperty("database.user", required("db-user"));
    config.setProperty("database.password", required("db-password"));
    config.setProperty("database.ssl.mode", "disable");
    config.setProperty("database.server.id", required("server-id"));
    config.setProperty("database.include.list", required("database"));
    config.setProperty("topic.prefix", TOPIC_PREFIX);
    // Data change events only: sluice's debezium-json reads no schema change events.
    config.setProperty("include.schema.changes", "false");
    config.setProperty("snapshot.mode", "initial");
    // Debezium's defaults, named: DECIMAL as Connect Decimal (bytes), temporal types as
    // io.debezium.time.* (DATE days, DATETIME(0..3) millis, DATETIME(4..6) micros, TIMESTAMP
    // ZonedTimestamp), binary as bytes, a tombstone after each delete.
    config.setProperty("decimal.handling.mode", "precise");
    config.setProperty("time.precision.mode", "adaptive_time_microseconds");
    config.setProperty("binary.handling.mode", "bytes");
    config.setProperty("tombstones.on.delete", "true");
    // Years as the server stores them: the default adjuster would read year 1 as 2001, taking it
    // for a two-digit year.
    config.setProperty("enable.time.adjuster", "false");
    return config;
  }

  private void handleBatch(
      List<RecordChangeEvent<SourceRecord>> events,
      DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
      throws InterruptedException {
    boolean stop = false;
    boolean snapshotDone = false;
    for (RecordChangeEvent<SourceRecord> event : events) {
      SourceRecord record = event.record();
      if (record.topic().equals(stopTopic) && record.value() != null) {
        stop = true;
        break;
      }
      byte[] key = keyConverter.fromConnectData(topic, record.keySchema(), record.key());
      byte[] value = valueConverter.fromConnectData(topic, record.valueSchema(), record.value());
      producer.send(new ProducerRecord<>(topic, key, value));
      ++produced;
      // The snapshot's last read, or a binlog event: what follows comes from the binlog.
      String marker = snapshotMarker(record);
      snapshotDone |= "last".equals(marker) || "false".equals(marker);
      committer.markProcessed(event);
    }
    // Committed offsets follow what the broker has acknowledged.
    producer.flush();
    committer.markBatchFinished();
    if (snapshotDone && readyFile != null && !Files.exists(readyFile)) markReady();
    if (stop) done.countDown();
  }

  // The value's source.snapshot ("first", "true", "last", "false", ...); null without one.
  private static String snapshotMarker(SourceRecord record) {
    if (!(record.value() instanceof Struct value)) return null;
    Field sourceField = value.schema().field("source");
    if (sourceField == null) return null;
    Struct source = value.getStruct("source");
    if (source == null || source.schema().field("snapshot") == null) return null;
    Object marker = source.get("snapshot");
    return marker == null ? "false" : marker.toString();
  }

  private void markReady() {
    try {
      Path tmp = readyFile.resolveSibling(readyFile.getFileName() + ".tmp");
      Files.writeString(tmp, produced + "\n");
      Files.move(tmp, readyFile);
    } catch (Exception e) {
      failure.compareAndSet(null, "cannot write " + readyFile + ": " + e);
      done.countDown();
    }
  }

  private int run() throws Exception {
    long timeoutS = Long.parseLong(args.getOrDefault("timeout-s", "300"));
    DebeziumEngine<RecordChangeEvent<SourceRecord>> engine =
        DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
            .using(engineConfig())
            .notifying(this::handleBatch)
            .using(
                (boolean success, String message, Throwable error) -> {
                  if (!success || error != null) {
                    failure.compareAndSet(
                        null, "the engine stopped: " + message + (error == null ? "" : ": " + error));
                  }
                  done.countDown();
                })
            .build();
    ExecutorService executor = Executors.newSingleThreadExecutor();
    executor.execute(engine);
    boolean finished = done.await(timeoutS, TimeUnit.SECONDS);
    try {
      engine.close();
    } catch (IllegalStateException e) {
      // Already shut down: the engine failed, as `failure` says.
    }
    executor.shutdown();
    executor.awaitTermination(60, TimeUnit.SECONDS);
    producer.close();
    if (!finished) {
      System.err.println(
          "debezium-producer: no event of the stop table within " + timeoutS + " s; produced "
              + produced);
      return 1;
    }
    if (failure.get() != null) {
      System.err.println("debezium-producer: " + failure.get());
      return 1;
    }
    System.err.println("debezium-producer: produced " + produced + " messages to " + topic);
    return 0;
  }

  private static Map<String, String> parseArgs(String[] argv) {
    Map<String, String> args = new HashMap<>();
    for (int i = 0; i < argv.length; i += 2) {
      if (!argv[i].startsWith("--") || i + 1 >= argv.length) {
        throw new IllegalArgumentException("expected --name value pairs, got " + argv[i]);
      }
      args.put(argv[i].substring(2), argv[i + 1]);
    }
    return args;
  }

  public static void main(String[] argv) throws Exception {
    // Debezium and Kafka log through SLF4J's simple binding; warnings are enough.
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    int code;
    try {
      code = new DebeziumProducer(parseArgs(argv)).run();
    } catch (IllegalArgumentException e) {
      System.err.println("debezium-producer: " + e.getMessage());
      code = 2;
    } catch (Exception e) {
      e.printStackTrace();
      code = 1;
    }
    // The engine's and the Kafka client's threads must not keep the JVM alive.
    System.exit(code);
  }
}
