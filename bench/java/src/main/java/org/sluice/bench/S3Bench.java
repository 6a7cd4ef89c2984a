package org.sluice.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;

/**
 * Java Paimon's side of s3_bench (issue 36), through paimon-s3 (Paimon's S3 file system on a
 * shaded Hadoop S3A): writes the bench's rows to a table of its own, then scans Sluice's table in
 * full and as k, d, counting the requests each scan made in the S3 server's log (one line per
 * request).
 *
 * <p>Usage: S3Bench ENDPOINT JAVA_TABLE SLUICE_TABLE SERVER_LOG ROWS. Prints "java_write rows=N
 * wall=S", then per scan "java_scan columns=C rows=N sum_k=S bytes=B requests=R wall=S".
 */
public final class S3Bench {
  private S3Bench() {}

  /** SplitMix64, as s3_bench.cc computes it. */
  static long mix(long x) {
    x += 0x9E3779B97F4A7C15L;
    x = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L;
    x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
    return x ^ (x >>> 31);
  }

  static long requests(String log) throws IOException {
    long n = 0;
    try (BufferedReader in = Files.newBufferedReader(Paths.get(log), StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.contains(" request: ")) {
          n++;
        }
      }
    }
    return n;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println("usage: S3Bench ENDPOINT JAVA_TABLE SLUICE_TABLE SERVER_LOG ROWS");
      System.exit(2);
    }
    Options options = new Options();
    options.set("s3.endpoint", args[0]);
    options.set("s3.access-key", "sluice-test");
    options.set("s3.secret-key", "sluice-test-secret");
    options.set("s3.path.style.access", "true");
    CatalogContext context = CatalogContext.create(options);
    String log = args[3];
    long rows = Long.parseLong(args[4]);

    Path javaPath = new Path(args[1]);
    long wall0 = System.nanoTime();
    FileIO javaIo = FileIO.get(javaPath, context);
    Schema schema =
        Schema.newBuilder()
            .column("k", DataTypes.BIGINT().notNull())
            .column("v", DataTypes.INT())
            .column("d", DataTypes.DOUBLE())
            .column("s1", DataTypes.STRING())
            .column("s2", DataTypes.STRING())
            .column("s3", DataTypes.STRING())
            .option("bucket", "-1")
            .option("file.format", "parquet")
            .build();
    new SchemaManager(javaIo, javaPath).createTable(schema);
    FileStoreTable javaTable = FileStoreTableFactory.create(javaIo, javaPath);
    BatchWriteBuilder builder = javaTable.newBatchWriteBuilder();
    try (BatchTableWrite write = builder.newWrite();
        BatchTableCommit commit = builder.newCommit()) {
      for (long k = 0; k < rows; k++) {
        long a = mix(k);
        long b = mix(a);
        write.write(
            GenericRow.of(
                k,
                (int) Long.remainderUnsigned(a, 1000000),
                Long.remainderUnsigned(b, 100000000) / 100.0,
                BinaryString.fromString(String.format("%016x", a)),
                BinaryString.fromString("name-" + (k % 9973)),
                BinaryString.fromString(String.format("%016x", b))));
      }
      commit.commit(write.prepareCommit());
    }
    System.out.printf("java_write rows=%d wall=%.3f%n", rows, (System.nanoTime() - wall0) / 1e9);
    System.out.flush();

    Path sluicePath = new Path(args[2]);
    FileStoreTable table =
        FileStoreTableFactory.create(FileIO.get(sluicePath, context), sluicePath);
    int all = table.rowType().getFieldCount();
    for (int columns : new int[] {all, 2}) {
      long before = requests(log);
      long start = System.nanoTime();
      ReadBuilder read = table.newReadBuilder();
      if (columns != all) {
        read.withProjection(new int[] {0, 2});
      }
      long count = 0;
      long sumK = 0;
      long bytes = 0;
      try (RecordReader<InternalRow> reader =
          read.newRead().createReader(read.newScan().plan())) {
        RecordReader.RecordIterator<InternalRow> batch;
        while ((batch = reader.readBatch()) != null) {
          InternalRow row;
          while ((row = batch.next()) != null) {
            count++;
            sumK += row.getLong(0);
            if (columns == all) {
              for (int c = 3; c < all; c++) {
                bytes += row.getString(c).getSizeInBytes();
              }
            }
          }
          batch.releaseBatch();
        }
      }
      double wall = (System.nanoTime() - start) / 1e9;
      System.out.printf(
          "java_scan columns=%d rows=%d sum_k=%d bytes=%d requests=%d wall=%.3f%n",
          columns, count, sumK, bytes, requests(log) - before, wall);
      System.out.flush();
    }
  }
}
