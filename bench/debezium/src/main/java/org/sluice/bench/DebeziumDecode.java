package org.sluice.bench;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.storage.MemoryOffsetBackingStore;

/**
 * The peer of bench/cdc_mysql_bench.cc (issue 32): Debezium's embedded engine with its MariaDB
 * connector decodes a MariaDB server's binary log from a given position and converts every change
 * event's key and value to JSON with Kafka Connect's JsonConverter (no schema envelope: the
 * debezium-json Sluice's Kafka source reads), discarding the bytes. It stops once it has seen
 * the expected number of change events and prints, as its last line,
 *
 * <pre>
 * DEBEZIUM records=N cpu_s=.. cpu_engine_s=.. cpu_stream_s=.. wall_stream_s=.. json_bytes=..
 * </pre>
 *
 * cpu_s the JVM's CPU time at the end (all threads, JVM start included), cpu_engine_s from the
 * engine's start (connector start, schema recovery, streaming), cpu_stream_s from the first change
 * event to the last (the steady decoding), wall_stream_s the same in wall time.
 *
 * <p>The start position goes into the offset store before the engine starts (SeededOffsets), as a
 * restarted connector would find it (MariaDB's connector dumps from the GTID position, --gtids:
 * BINLOG_GTID_POS(file, pos)); snapshot.mode=recovery reads the tables' definitions (no
 * rows) and streams from that offset. Offsets and schema history stay in memory.
 *
 * <pre>
 * java -cp target/sluice-bench-debezium-1.jar:target/lib/* org.sluice.bench.DebeziumDecode
 *   --db-port 13596 --db-user sluice --db-password sluice --database D --server-id 5401
 *   --binlog-file binlog.000001 --binlog-pos 4 --gtids 0-1-5 --records 1000000 [--timeout-s 1200]
 * </pre>
 */
public final class DebeziumDecode {
  private static final String ENGINE_NAME = "sluice-bench-debezium";
  private static final String TOPIC_PREFIX = "bench";

  /** The offset store, holding the start position before the engine reads it. */
  public static final class SeededOffsets extends MemoryOffsetBackingStore {
    static volatile String file;
    static volatile long position;
    static volatile String gtids;

    @Override
    public void configure(WorkerConfig config) {
      super.configure(config);
      // The key and value as the engine's OffsetStorageWriter stores them: JsonConverter
      // without schemas over [engine name, partition] and the offset map.
      JsonConverter converter = new JsonConverter();
      converter.configure(Map.of("schemas.enable", "false"), false);
      byte[] key =
          converter.fromConnectData(
              ENGINE_NAME, null, Arrays.asList(ENGINE_NAME, Map.of("server", TOPIC_PREFIX)));
      Map<String, Object> offset = new HashMap<>();
      offset.put("file", file);
      offset.put("pos", position);
      // MariaDB's connector asks the server for the binlog from a GTID position.
      if (gtids != null && !gtids.isEmpty()) offset.put("gtids", gtids);
      byte[] value = converter.fromConnectData(ENGINE_NAME, null, offset);
      data.put(ByteBuffer.wrap(key), ByteBuffer.wrap(value));
    }

    @Override
    public Set<Map<String, Object>> connectorPartitions(String connectorName) {
      return Set.of(Map.of("server", TOPIC_PREFIX));
    }
  }

  private final Map<String, String> args;
  private final JsonConverter keyConverter = new JsonConverter();
  private final JsonConverter valueConverter = new JsonConverter();
  private final long expected;
  private final CountDownLatch done = new CountDownLatch(1);
  private final AtomicReference<String> failure = new AtomicReference<>();
  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private long records = 0;
  private long jsonBytes = 0;
  private long firstCpuNs = -1;
  private long firstWallNs = -1;
  private long lastCpuNs = -1;
  private long lastWallNs = -1;

  private DebeziumDecode(Map<String, String> args) {
    this.args = args;
    expected = Long.parseLong(required("records"));
    SeededOffsets.file = required("binlog-file");
    SeededOffsets.position = Long.parseLong(required("binlog-pos"));
    SeededOffsets.gtids = args.get("gtids");
    Map<String, String> converterConfig = Map.of("schemas.enable", "false");
    keyConverter.configure(converterConfig, true);
    valueConverter.configure(converterConfig, false);
  }

  private String required(String name) {
    String value = args.get(name);
    if (value == null) throw new IllegalArgumentException("missing --" + name);
    return value;
  }

  private Properties engineConfig() {
    Properties config = new Properties();
    config.setProperty("name", ENGINE_NAME);
    config.setProperty("connector.class", "io.debezium.connector.mariadb.MariaDbConnector");
    config.setProperty("offset.storage", SeededOffsets.class.getName());
    config.setProperty("offset.flush.interval.ms", "60000");
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
    config.setProperty("include.schema.changes", "false");
    // The tables' definitions only (no rows), then the binlog from the stored offset.
    config.setProperty("snapshot.mode", "recovery");
    config.setProperty("snapshot.locking.mode", "none");
    // One event per row change: no tombstones after deletes.
    config.setProperty("tombstones.on.delete", "false");
    // Debezium's defaults, named (as tests/cdc/debezium's producer has them).
    config.setProperty("decimal.handling.mode", "precise");
    config.setProperty("time.precision.mode", "adaptive_time_microseconds");
    config.setProperty("binary.handling.mode", "bytes");
    return config;
  }

  private void handleBatch(
      List<RecordChangeEvent<SourceRecord>> events,
      DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
      throws InterruptedException {
    for (RecordChangeEvent<SourceRecord> event : events) {
      SourceRecord record = event.record();
      if (record.value() != null) {
        if (firstCpuNs < 0) {
          firstCpuNs = os.getProcessCpuTime();
          firstWallNs = System.nanoTime();
        }
        byte[] key = keyConverter.fromConnectData(record.topic(), record.keySchema(), record.key());
        byte[] value =
            valueConverter.fromConnectData(record.topic(), record.valueSchema(), record.value());
        jsonBytes += (key == null ? 0 : key.length) + value.length;
        ++records;
      }
      committer.markProcessed(event);
    }
    committer.markBatchFinished();
    if (records >= expected && lastCpuNs < 0) {
      lastCpuNs = os.getProcessCpuTime();
      lastWallNs = System.nanoTime();
      done.countDown();
    }
  }

  private int run() throws Exception {
    long timeoutS = Long.parseLong(args.getOrDefault("timeout-s", "1200"));
    DebeziumEngine<RecordChangeEvent<SourceRecord>> engine =
        DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
            .using(engineConfig())
            .notifying(this::handleBatch)
            .using(
                (boolean success, String message, Throwable error) -> {
                  if (!success || error != null) {
                    failure.compareAndSet(
                        null,
                        "the engine stopped: " + message + (error == null ? "" : ": " + error));
                  }
                  done.countDown();
                })
            .build();
    long engineCpuNs = os.getProcessCpuTime();
    ExecutorService executor = Executors.newSingleThreadExecutor();
    executor.execute(engine);
    boolean finished = done.await(timeoutS, TimeUnit.SECONDS);
    if (!finished || failure.get() != null || lastCpuNs < 0) {
      System.err.println(
          "debezium-decode: "
              + (failure.get() != null ? failure.get() : "no end within " + timeoutS + " s")
              + "; " + records + " of " + expected + " change events");
      return 1;
    }
    if (records != expected) {
      System.err.println(
          "debezium-decode: " + records + " change events, expected " + expected);
      return 1;
    }
    long endCpuNs = os.getProcessCpuTime();
    System.out.printf(
        "DEBEZIUM records=%d cpu_s=%.3f cpu_engine_s=%.3f cpu_stream_s=%.3f wall_stream_s=%.3f"
            + " json_bytes=%d%n",
        records,
        endCpuNs / 1e9,
        (lastCpuNs - engineCpuNs) / 1e9,
        (lastCpuNs - firstCpuNs) / 1e9,
        (lastWallNs - firstWallNs) / 1e9,
        jsonBytes);
    System.out.flush();
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

  public static void main(String[] argv) {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    int code;
    try {
      code = new DebeziumDecode(parseArgs(argv)).run();
    } catch (IllegalArgumentException e) {
      System.err.println("debezium-decode: " + e.getMessage());
      code = 2;
    } catch (Exception e) {
      e.printStackTrace();
      code = 1;
    }
    // The engine's threads must not keep the JVM alive (nor spend CPU after the count).
    System.exit(code);
  }
}
