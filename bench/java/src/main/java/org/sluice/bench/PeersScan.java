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
 * Java Paimon's side of peers_scan_bench: reads the table peers_scan_bench wrote (k INT and
 * f1..f20 STRING), in the shape of Paimon's own TableReadBenchmark, `runs` times in one JVM so
 * that the later runs see a warm JIT.
 *
 * <p>Usage: PeersScan TABLE RUNS. Each run reads the latest snapshot twice: every column, then
 * k, f1, f2, f3 only, folding every row into count, sum(k) and the bytes of the strings read (as
 * the C++ side does). Prints per read "java_scan run=I columns=C rows=N sum_k=S bytes=B cpu=S
 * wall=S" (cpu: the whole process, JIT and GC threads included).
 */
public final class PeersScan {
  private PeersScan() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: PeersScan TABLE RUNS");
      System.exit(2);
    }
    FileStoreTable table = FileStoreTableFactory.create(LocalFileIO.create(), new Path(args[0]));
    int runs = Integer.parseInt(args[1]);
    OperatingSystemMXBean os =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    int all = table.rowType().getFieldCount();
    for (int run = 0; run < runs; run++) {
      for (int columns : new int[] {all, 4}) {
        long cpu0 = os.getProcessCpuTime();
        long wall0 = System.nanoTime();
        ReadBuilder read = table.newReadBuilder();
        if (columns != all) {
          read.withProjection(new int[] {0, 1, 2, 3});
        }
        long rows = 0;
        long sumK = 0;
        long bytes = 0;
        try (RecordReader<InternalRow> reader =
            read.newRead().createReader(read.newScan().plan())) {
          RecordReader.RecordIterator<InternalRow> batch;
          while ((batch = reader.readBatch()) != null) {
            InternalRow row;
            while ((row = batch.next()) != null) {
              rows++;
              sumK += row.getInt(0);
              for (int c = 1; c < columns; c++) {
                bytes += row.getString(c).getSizeInBytes();
              }
            }
            batch.releaseBatch();
          }
        }
        double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
        double wall = (System.nanoTime() - wall0) / 1e9;
        System.out.printf(
            "java_scan run=%d columns=%d rows=%d sum_k=%d bytes=%d cpu=%.3f wall=%.3f%n",
            run, columns, rows, sumK, bytes, cpu, wall);
        System.out.flush();
      }
    }
  }
}
