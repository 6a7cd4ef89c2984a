package org.sluice.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.options.CatalogOptions;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;

/**
 * Java Paimon's side of peers_lookup_bench: the upsert workload (k BIGINT primary key, v1 INT,
 * v2 BIGINT, v3 DOUBLE, v4 STRING, v5 DOUBLE) into a table with changelog-producer = lookup,
 * bucket 1, written `runs` times in one JVM so that the later runs see a warm JIT.
 *
 * <p>Usage: PeersLookupWrite WAREHOUSE ROWS_FILE RUNS. ROWS_FILE holds the rows as the C++ side
 * generated them, little-endian: k int64, v1 int32, v2 int64, v3 double, v4 as an int32 length
 * and its bytes, v5 double. They are loaded before any timing, as the C++ side generates its
 * batches before timing. Each run writes every row, commits once and closes the write (the
 * commit waits for the lookup compaction, which writes the changelog); the table is truncated
 * between runs, outside the timing. Prints one line per run, "java_lookup_write run=I rows=N
 * cpu=S wall=S" (cpu: the whole process, JIT and GC threads included), then "java_rows=N": the
 * rows the table holds after the last run.
 */
public final class PeersLookupWrite {
  private PeersLookupWrite() {}

  static List<InternalRow> load(String path) throws Exception {
    ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(Paths.get(path)));
    in.order(ByteOrder.LITTLE_ENDIAN);
    List<InternalRow> rows = new ArrayList<>();
    while (in.hasRemaining()) {
      GenericRow row = new GenericRow(6);
      row.setField(0, in.getLong());
      row.setField(1, in.getInt());
      row.setField(2, in.getLong());
      row.setField(3, in.getDouble());
      byte[] text = new byte[in.getInt()];
      in.get(text);
      row.setField(4, BinaryString.fromBytes(text));
      row.setField(5, in.getDouble());
      rows.add(row);
    }
    return rows;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: PeersLookupWrite WAREHOUSE ROWS_FILE RUNS");
      System.exit(2);
    }
    String warehouse = args[0];
    List<InternalRow> rows = load(args[1]);
    int runs = Integer.parseInt(args[2]);

    Options catalogOptions = new Options();
    catalogOptions.set(CatalogOptions.WAREHOUSE, new File(warehouse).toURI().toString());
    Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(catalogOptions));
    catalog.createDatabase("default", true);
    List<DataField> fields = new ArrayList<>();
    fields.add(new DataField(0, "k", DataTypes.BIGINT().notNull()));
    fields.add(new DataField(1, "v1", DataTypes.INT()));
    fields.add(new DataField(2, "v2", DataTypes.BIGINT()));
    fields.add(new DataField(3, "v3", DataTypes.DOUBLE()));
    fields.add(new DataField(4, "v4", DataTypes.STRING()));
    fields.add(new DataField(5, "v5", DataTypes.DOUBLE()));
    Map<String, String> options = new HashMap<>();
    options.put("bucket", "1");
    options.put("changelog-producer", "lookup");
    Identifier identifier = Identifier.create("default", "T");
    catalog.dropTable(identifier, true);
    catalog.createTable(
        identifier, new Schema(fields, List.of(), List.of("k"), options, ""), false);
    Table table = catalog.getTable(identifier);
    IOManager ioManager = IOManager.create(new File(warehouse, "io").getPath());

    OperatingSystemMXBean os =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    for (int run = 0; run < runs; run++) {
      if (run > 0) {
        try (BatchTableCommit truncate = table.newBatchWriteBuilder().newCommit()) {
          truncate.truncateTable();
        }
      }
      long cpu0 = os.getProcessCpuTime();
      long wall0 = System.nanoTime();
      BatchWriteBuilder builder = table.newBatchWriteBuilder();
      try (BatchTableWrite write = builder.newWrite();
          BatchTableCommit commit = builder.newCommit()) {
        write.withIOManager(ioManager);
        for (InternalRow row : rows) {
          write.write(row);
        }
        commit.commit(write.prepareCommit());
      }
      double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
      double wall = (System.nanoTime() - wall0) / 1e9;
      System.out.printf(
          "java_lookup_write run=%d rows=%d cpu=%.3f wall=%.3f%n", run, rows.size(), cpu, wall);
      System.out.flush();
    }

    ReadBuilder read = table.newReadBuilder().withProjection(new int[] {0});
    long count = 0;
    try (RecordReader<InternalRow> reader =
        read.newRead().createReader(read.newScan().plan())) {
      RecordReader.RecordIterator<InternalRow> batch;
      while ((batch = reader.readBatch()) != null) {
        while (batch.next() != null) {
          count++;
        }
        batch.releaseBatch();
      }
    }
    System.out.println("java_rows=" + count);
    ioManager.close();
  }
}
