package org.sluice.bench;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.MemoryOffsetBackingStore;

/**
 * The peer of bench/cdc_mysql_bench.cc (issue 32): Debezium's embedded engine with its MariaDB
 * connector decodes a MariaDB server's binary log from a given position to JSON, discarding the
 * bytes, until it has seen the expected number of change events, and prints its CPU time
 * (DecodeRun: the run, the JSON and the DEBEZIUM line).
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

  private DebeziumDecode() {}

  private static Properties engineConfig(Map<String, String> args) {
    SeededOffsets.file = DecodeRun.required(args, "binlog-file");
    SeededOffsets.position = Long.parseLong(DecodeRun.required(args, "binlog-pos"));
    SeededOffsets.gtids = args.get("gtids");
    Properties config = new Properties();
    config.setProperty("name", ENGINE_NAME);
    config.setProperty("connector.class", "io.debezium.connector.mariadb.MariaDbConnector");
    config.setProperty("offset.storage", SeededOffsets.class.getName());
    config.setProperty("offset.flush.interval.ms", "60000");
    config.setProperty(
        "schema.history.internal", "io.debezium.relational.history.MemorySchemaHistory");
    config.setProperty("database.hostname", args.getOrDefault("db-host", "127.0.0.1"));
    config.setProperty("database.port", DecodeRun.required(args, "db-port"));
    config.setProperty("database.user", DecodeRun.required(args, "db-user"));
    config.setProperty("database.password", DecodeRun.required(args, "db-password"));
    config.setProperty("database.ssl.mode", "disable");
    config.setProperty("database.server.id", DecodeRun.required(args, "server-id"));
    config.setProperty("database.include.list", DecodeRun.required(args, "database"));
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

  public static void main(String[] argv) {
    DecodeRun.main(argv, DebeziumDecode::engineConfig);
  }
}
