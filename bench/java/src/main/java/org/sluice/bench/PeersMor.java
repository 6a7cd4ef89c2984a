package org.sluice.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.source.ReadBuilder;

/**
 * Java Paimon's side of peers_mor_bench: reads the primary-key table peers_mor_bench wrote (k
 * BIGINT, a INT, b DOUBLE, c STRING in five overlapping level-0 runs, so every read merges
 * them), `runs` times in one JVM so that the later runs see a warm JIT.
 *
 * <p>Usage: PeersMor TABLE RUNS. Each run reads the latest snapshot in full, folding every row
 * into count, sum(k), sum(a) and the bytes of c (as the C++ side does), and prints "java_mor
 * run=I rows=N sum_k=S sum_a=A sum_c=C cpu=S wall=S" (cpu: the whole process, JIT and GC
 * threads included).
 */
public final class PeersMor {
  private PeersMor() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: PeersMor TABLE RUNS");
      System.exit(2);
    }
    FileStoreTable table = FileStoreTableFactory.create(LocalFileIO.create(), new Path(args[0]));
    int runs = Integer.parseInt(args[1]);
    OperatingSystemMXBean os =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    for (int run = 0; run < runs; run++) {
      long cpu0 = os.getProcessCpuTime();
      long wall0 = System.nanoTime();
      ReadBuilder read = table.newReadBuilder();
      long rows = 0;
      long sumK = 0;
      long sumA = 0;
      long sumC = 0;
      try (RecordReader<InternalRow> reader =
          read.newRead().createReader(read.newScan().plan())) {
        RecordReader.RecordIterator<InternalRow> batch;
        while ((batch = reader.readBatch()) != null) {
          InternalRow row;
          while ((row = batch.next()) != null) {
            rows++;
            sumK += row.getLong(0);
            if (!row.isNullAt(1)) {
              sumA += row.getInt(1);
            }
            if (!row.isNullAt(3)) {
              sumC += row.getString(3).getSizeInBytes();
            }
          }
          batch.releaseBatch();
        }
      }
      double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
      double wall = (System.nanoTime() - wall0) / 1e9;
      System.out.printf(
          "java_mor run=%d rows=%d sum_k=%d sum_a=%d sum_c=%d cpu=%.3f wall=%.3f%n",
          run, rows, sumK, sumA, sumC, cpu, wall);
      System.out.flush();
    }
  }
}
