package org.sluice.bench;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * What DebeziumDecode (MariaDB) and DebeziumPostgresDecode share: the command line (--name value
 * pairs, --records N the change events to wait for, --timeout-s), the embedded engine run with a
 * connector's configuration, every change event's key and value converted to JSON with Kafka
 * Connect's JsonConverter (no schema envelope: the debezium-json Sluice's Kafka source reads) and
 * the bytes discarded, and the last line
 *
 * <pre>
 * DEBEZIUM records=N cpu_s=.. cpu_engine_s=.. cpu_stream_s=.. wall_stream_s=.. json_bytes=..
 * </pre>
 *
 * cpu_s the JVM's CPU time at the end (all threads, JVM start included), cpu_engine_s from the
 * engine's start (connector start and streaming), cpu_stream_s from the first change event to the
 * last (the steady decoding), wall_stream_s the same in wall time.
 */
final class DecodeRun {
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

  private DecodeRun(long expected) {
    this.expected = expected;
    Map<String, String> converterConfig = Map.of("schemas.enable", "false");
    keyConverter.configure(converterConfig, true);
    valueConverter.configure(converterConfig, false);
  }

  static String required(Map<String, String> args, String name) {
    String value = args.get(name);
    if (value == null) throw new IllegalArgumentException("missing --" + name);
    return value;
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

  private int run(Properties config, long timeoutS) throws Exception {
    DebeziumEngine<RecordChangeEvent<SourceRecord>> engine =
        DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
            .using(config)
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

  /**
   * Parses `argv`, runs the engine with the configuration `config` makes of the arguments until
   * --records change events have been seen, and exits: 0 when they were, 1 on a failure, 2 on a
   * wrong command line.
   */
  static void main(String[] argv, Function<Map<String, String>, Properties> config) {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    int code;
    try {
      Map<String, String> args = parseArgs(argv);
      long expected = Long.parseLong(required(args, "records"));
      long timeoutS = Long.parseLong(args.getOrDefault("timeout-s", "1200"));
      Properties properties = config.apply(args);
      code = new DecodeRun(expected).run(properties, timeoutS);
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
