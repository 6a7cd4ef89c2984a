package org.sluice.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.File;
import java.lang.management.ManagementFactory;
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
 * Java Paimon's side of peers_write_bench: the shape of Paimon's own TableWriterBenchmark (a
 * primary-key table, INT key k and 20 STRING columns f1..f20 of 10 characters, bucket 1, one
 * writer thread), written `runs` times in one JVM so that the later runs see a warm JIT.
 *
 * <p>Usage: PeersWrite WAREHOUSE ROWS FORMAT RUNS. Each run writes the same ROWS rows (the
 * generator restarts from its seed), commits them once and is timed from opening the write to
 * closing it; the table is truncated between runs, outside the timing. Prints one line per run,
 * "java_write run=I rows=N cpu=S wall=S" (cpu: the whole process, JIT and GC threads included,
 * as the C++ side counts its own), then "java_rows=N": the rows the table holds after the last
 * run, read back with only k projected, which the C++ side checks against its own count.
 */
public final class PeersWrite {
  private static final int VALUE_COUNT = 20;
  private static final byte[] HEX = "0123456789abcdef".getBytes();

  private PeersWrite() {}

  /** The rows' generator: SplitMix64, the same sequence as bench/peers_rows.cc. */
  static final class Rows {
    private long state;

    Rows(long seed) {
      state = seed;
    }

    long next() {
      state += 0x9E3779B97F4A7C15L;
      long z = state;
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      return z ^ (z >>> 31);
    }

    InternalRow nextRow() {
      GenericRow row = new GenericRow(1 + VALUE_COUNT);
      row.setField(0, (int) (next() >>> 33));
      for (int i = 1; i <= VALUE_COUNT; i++) {
        long bits = next();
        byte[] text = new byte[10];
        for (int c = 0; c < 10; c++) {
          text[c] = HEX[(int) ((bits >>> (4 * c)) & 15)];
        }
        row.setField(i, BinaryString.fromBytes(text));
      }
      return row;
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: PeersWrite WAREHOUSE ROWS FORMAT RUNS");
      System.exit(2);
    }
    String warehouse = args[0];
    long rows = Long.parseLong(args[1]);
    String format = args[2];
    int runs = Integer.parseInt(args[3]);

    Options catalogOptions = new Options();
    catalogOptions.set(CatalogOptions.WAREHOUSE, new File(warehouse).toURI().toString());
    Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(catalogOptions));
    catalog.createDatabase("default", true);
    List<DataField> fields = new ArrayList<>();
    fields.add(new DataField(0, "k", DataTypes.INT()));
    for (int i = 1; i <= VALUE_COUNT; i++) {
      fields.add(new DataField(i, "f" + i, DataTypes.STRING()));
    }
    Map<String, String> options = new HashMap<>();
    options.put("bucket", "1");
    options.put("file.format", format);
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
      Rows generator = new Rows(42);
      long cpu0 = os.getProcessCpuTime();
      long wall0 = System.nanoTime();
      BatchWriteBuilder builder = table.newBatchWriteBuilder();
      try (BatchTableWrite write = builder.newWrite();
          BatchTableCommit commit = builder.newCommit()) {
        write.withIOManager(ioManager);
        for (long i = 0; i < rows; i++) {
          write.write(generator.nextRow());
        }
        commit.commit(write.prepareCommit());
      }
      double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
      double wall = (System.nanoTime() - wall0) / 1e9;
      System.out.printf("java_write run=%d rows=%d cpu=%.3f wall=%.3f%n", run, rows, cpu, wall);
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
