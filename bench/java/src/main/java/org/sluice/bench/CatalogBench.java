package org.sluice.bench;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.apache.paimon.rest.RESTCatalogServer;
import org.apache.paimon.rest.auth.BearTokenAuthProvider;
import org.apache.paimon.rest.responses.ConfigResponse;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;

/**
 * Java's side of catalog_bench (issue 35): Java's test REST catalog server (RESTCatalogServer of
 * paimon-core 1.4.2's test jar, on okhttp's MockWebServer, started in this JVM as Paimon's own
 * MockRESTCatalogTest starts it) against Sluice's REST catalog server, both driven by the same
 * client, Java's RESTCatalog, in this one JVM: so the two timings differ by the server only.
 *
 * <p>Java's client holds its connection open (keep-alive, TCP_NODELAY on its side), and both
 * servers write a response's headers and body in two segments with Nagle's algorithm on, so every
 * getTable waits for the client's delayed ACK (about 40 ms on Linux): measured with strace, on
 * both servers. catalog_bench therefore asks for fewer gets here (its --rows / 10) and compares
 * the servers' get rates with clients that do not meet that timer (catalog_bench.cc).
 *
 * <p>Usage: CatalogBench SLUICE_URI TOKEN JAVA_DATA_DIR GETS CREATES DONE_FILE. Against each
 * server: a warm-up (database "warm", CREATES / 5 tables, GETS / 5 gets: the JIT compiles the
 * client's path before either server is timed), then database "bench", CREATES tables
 * bench.t0 .. (createTable) and GETS getTable calls over them round-robin. Prints per server
 * "java_client server=java|sluice creates=N create_s=S gets=N get_s=S", then "java_server
 * uri=URI" and keeps Java's server up (for Sluice's client to measure it too) until DONE_FILE
 * exists.
 */
public final class CatalogBench {
  private CatalogBench() {}

  /** The columns both sides create: id BIGINT, v STRING (catalog_bench.cc's spec). */
  static Schema schema() {
    return Schema.newBuilder()
        .column("id", DataTypes.BIGINT())
        .column("v", DataTypes.STRING())
        .build();
  }

  static Catalog open(String uri, String token, String warehouse) {
    Options options = new Options();
    options.set("metastore", "rest");
    options.set("uri", uri);
    options.set("token.provider", "bear");
    options.set("token", token);
    options.set("warehouse", warehouse);
    // CatalogFactory wraps a catalog in CachingCatalog by default, which would answer repeated
    // getTable calls from memory: every call must reach the server.
    options.set("cache-enabled", "false");
    return CatalogFactory.createCatalog(CatalogContext.create(options));
  }

  /** Seconds for `creates` tables in `database` (created first) and `gets` getTable calls. */
  static double[] run(Catalog catalog, String database, int creates, int gets) throws Exception {
    catalog.createDatabase(database, false);
    Schema schema = schema();
    long start = System.nanoTime();
    for (int i = 0; i < creates; i++) {
      catalog.createTable(Identifier.create(database, "t" + i), schema, false);
    }
    double createSeconds = (System.nanoTime() - start) / 1e9;
    start = System.nanoTime();
    for (int i = 0; i < gets; i++) {
      if (catalog.getTable(Identifier.create(database, "t" + (i % creates))) == null) {
        throw new IllegalStateException("no table " + database + ".t" + (i % creates));
      }
    }
    double getSeconds = (System.nanoTime() - start) / 1e9;
    return new double[] {createSeconds, getSeconds};
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 6) {
      System.err.println(
          "usage: CatalogBench SLUICE_URI TOKEN JAVA_DATA_DIR GETS CREATES DONE_FILE");
      System.exit(2);
    }
    String sluiceUri = args[0];
    String token = args[1];
    String dataDir = args[2];
    int gets = Integer.parseInt(args[3]);
    int creates = Integer.parseInt(args[4]);
    String doneFile = args[5];

    // As MockRESTCatalogTest configures it: the prefix and the warehouse name the config
    // endpoint answers for; no data token (Sluice's server hands out none either).
    String warehouse = "bench";
    Map<String, String> defaults = new HashMap<>();
    defaults.put("prefix", "paimon");
    defaults.put("warehouse", warehouse);
    ConfigResponse config = new ConfigResponse(defaults, new HashMap<>());
    RESTCatalogServer server =
        new RESTCatalogServer(dataDir, new BearTokenAuthProvider(token), config, warehouse);
    server.start();
    try {
      Catalog javaServer = open(server.getUrl(), token, warehouse);
      run(javaServer, "warm", Math.max(1, creates / 5), gets / 5);
      Catalog sluiceServer = open(sluiceUri, token, warehouse);
      run(sluiceServer, "warm", Math.max(1, creates / 5), gets / 5);
      String[] names = {"java", "sluice"};
      Catalog[] catalogs = {javaServer, sluiceServer};
      for (int s = 0; s < 2; s++) {
        double[] t = run(catalogs[s], "bench", creates, gets);
        System.out.printf(
            "java_client server=%s creates=%d create_s=%.6f gets=%d get_s=%.6f%n",
            names[s], creates, t[0], gets, t[1]);
        System.out.flush();
      }
      javaServer.close();
      sluiceServer.close();
      System.out.println("java_server uri=" + server.getUrl());
      System.out.flush();
      while (!Files.exists(Paths.get(doneFile))) {
        Thread.sleep(20);
      }
    } finally {
      server.shutdown();
    }
  }
}
