package org.sluice.bench;

import java.util.Map;
import java.util.Properties;

/**
 * The peer of bench/cdc_postgres_bench.cc (issue 32): Debezium's embedded engine with its
 * PostgreSQL connector (plugin.name=pgoutput) streams a logical replication slot the benchmark
 * created, and so its position, before the changes were committed; it decodes them to JSON,
 * discarding the bytes, until it has seen the expected number of change events, and prints its
 * CPU time (DecodeRun: the run, the JSON and the DEBEZIUM line).
 *
 * <p>snapshot.mode=no_data: no rows are read, and with no stored offset the connector streams
 * from the slot's confirmed position, where the slot was created. The publication is the
 * benchmark's own (publication.autocreate.mode=disabled); the slot is kept at the end. Offsets
 * stay in memory.
 *
 * <pre>
 * java -cp target/sluice-bench-debezium-1.jar:target/lib/* org.sluice.bench.DebeziumPostgresDecode
 *   --db-port 15596 --db-user sluice --db-password sluice --database D --slot S
 *   --publication P --records 1000000 [--timeout-s 1200]
 * </pre>
 */
public final class DebeziumPostgresDecode {
  private DebeziumPostgresDecode() {}

  private static Properties engineConfig(Map<String, String> args) {
    Properties config = new Properties();
    config.setProperty("name", "sluice-bench-debezium-postgres");
    config.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    config.setProperty(
        "offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
    config.setProperty("offset.flush.interval.ms", "60000");
    config.setProperty("database.hostname", args.getOrDefault("db-host", "127.0.0.1"));
    config.setProperty("database.port", DecodeRun.required(args, "db-port"));
    config.setProperty("database.user", DecodeRun.required(args, "db-user"));
    config.setProperty("database.password", DecodeRun.required(args, "db-password"));
    config.setProperty("database.dbname", DecodeRun.required(args, "database"));
    config.setProperty("database.sslmode", "disable");
    config.setProperty("topic.prefix", "bench");
    config.setProperty("plugin.name", "pgoutput");
    config.setProperty("slot.name", DecodeRun.required(args, "slot"));
    config.setProperty("slot.drop.on.stop", "false");
    config.setProperty("publication.name", DecodeRun.required(args, "publication"));
    config.setProperty("publication.autocreate.mode", "disabled");
    // No rows: the stream from the slot's position.
    config.setProperty("snapshot.mode", "no_data");
    // One event per row change: no tombstones after deletes.
    config.setProperty("tombstones.on.delete", "false");
    // The same value handling as DebeziumDecode's.
    config.setProperty("decimal.handling.mode", "precise");
    config.setProperty("time.precision.mode", "adaptive_time_microseconds");
    config.setProperty("binary.handling.mode", "bytes");
    return config;
  }

  public static void main(String[] argv) {
    DecodeRun.main(argv, DebeziumPostgresDecode::engineConfig);
  }
}
