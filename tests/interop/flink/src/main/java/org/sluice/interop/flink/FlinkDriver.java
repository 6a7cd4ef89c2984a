package org.sluice.interop.flink;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;

/**
 * The Flink driver of Sluice's interop tests: Flink SQL (Paimon's Flink connector, a Paimon
 * filesystem catalog on the test's warehouse) in one local mini-cluster started once per test
 * run. Reads one JSON command per line on stdin, answers each with one JSON line on stdout:
 * {"ok": true, ...} (with "rows": N, then N row lines, each a JSON object keyed by column name
 * as `sluice read --format jsonl` prints BIGINT / INT / STRING / DECIMAL values) or {"error":
 * "..."}. End of input ends the program.
 *
 * <p>Commands:
 *
 * <ul>
 *   <li>open: "warehouse": the catalog `paimon` on it, in a batch and a streaming environment.
 *   <li>sql: "sql", "mode" batch | stream: runs a statement to its end (DDL, INSERT INTO).
 *   <li>query: "sql" (batch): the rows of a bounded query.
 *   <li>stream_start: "id", "sql", "keys" [columns]: starts a streaming query and folds its
 *       changelog into the rows it stands for (+I / +U put the row of its key, -U / -D remove
 *       it), in a background thread.
 *   <li>stream_wait: "id", "rows" [objects], "timeout_ms": waits until the folded rows equal
 *       "rows" or the time is up; answers the folded rows and "matched".
 *   <li>stream_stop: "id", optional "savepoint" (a directory): stops the job (with a savepoint
 *       there, which completes a checkpoint: Paimon's source then records its consumer).
 * </ul>
 */
public final class FlinkDriver {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final PrintStream out;
  private MiniCluster cluster;
  private TableEnvironment batch;
  private TableEnvironment stream;
  private final Map<String, Stream> streams = new HashMap<>();

  /** A running streaming query and the rows its changelog folds into. */
  private static final class Stream {
    final TableResult result;
    final List<String> keys;
    final Map<JsonNode, JsonNode> rows = new LinkedHashMap<>();
    Throwable failure;
    Thread reader;

    Stream(TableResult result, List<String> keys) {
      this.result = result;
      this.keys = keys;
    }
  }

  private FlinkDriver(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    // Flink and Paimon log to stdout through their defaults; keep stdout for answers only.
    PrintStream answers =
        new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, "UTF-8");
    System.setOut(System.err);
    FlinkDriver driver = new FlinkDriver(answers);
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) continue;
      driver.handle(line);
    }
    driver.close();
    // Flink leaves non-daemon threads behind (RPC, REST client): end the JVM here.
    System.exit(0);
  }

  private void handle(String line) {
    StringBuilder text = new StringBuilder();
    try {
      JsonNode command = JSON.readTree(line);
      String name = command.path("cmd").asText("");
      switch (name) {
        case "open":
          open(required(command, "warehouse").asText());
          ok(text);
          break;
        case "sql":
          env(command).executeSql(required(command, "sql").asText()).await();
          ok(text);
          break;
        case "query":
          query(command, text);
          break;
        case "stream_start":
          streamStart(command);
          ok(text);
          break;
        case "stream_wait":
          streamWait(command, text);
          break;
        case "stream_stop":
          streamStop(command);
          ok(text);
          break;
        default:
          throw new IllegalArgumentException("unknown cmd '" + name + "'");
      }
    } catch (Throwable t) {
      text.setLength(0);
      StringWriter trace = new StringWriter();
      t.printStackTrace(new PrintWriter(trace));
      System.err.println(trace);
      Throwable root = t;
      while (root.getCause() != null) root = root.getCause();
      ObjectNode error = JSON.createObjectNode();
      error.put(
          "error",
          t.getClass().getSimpleName()
              + ": "
              + t.getMessage()
              + (root != t ? " (cause: " + root + ")" : ""));
      text.append(error).append('\n');
    }
    out.print(text);
    out.flush();
  }

  private static void ok(StringBuilder text) {
    text.append("{\"ok\": true}\n");
  }

  private static JsonNode required(JsonNode command, String field) {
    JsonNode node = command.get(field);
    if (node == null || node.isNull()) {
      throw new IllegalArgumentException("missing field '" + field + "'");
    }
    return node;
  }

  // One mini-cluster for every job of the run; both environments submit to it.
  private void open(String warehouse) throws Exception {
    if (cluster == null) {
      Map<String, String> settings = new HashMap<>();
      settings.put("rest.bind-port", "0");
      settings.put("taskmanager.numberOfTaskSlots", "4");
      cluster =
          new MiniCluster(
              new MiniClusterConfiguration.Builder()
                  .setConfiguration(Configuration.fromMap(settings))
                  .setNumTaskManagers(1)
                  .setNumSlotsPerTaskManager(4)
                  .build());
      cluster.start();
      URI rest = cluster.getRestAddress().get();
      Map<String, String> client = new HashMap<>();
      client.put("execution.target", "remote");
      client.put("rest.address", rest.getHost());
      client.put("rest.port", String.valueOf(rest.getPort()));
      client.put("parallelism.default", "1");
      client.put("table.exec.resource.default-parallelism", "1");
      // Paimon's sink commits when a checkpoint completes; streaming reads with a consumer-id
      // record their position then too.
      client.put("execution.checkpointing.interval", "500 ms");
      Configuration conf = Configuration.fromMap(client);
      batch =
          TableEnvironment.create(
              EnvironmentSettings.newInstance().inBatchMode().withConfiguration(conf).build());
      stream =
          TableEnvironment.create(
              EnvironmentSettings.newInstance().inStreamingMode().withConfiguration(conf).build());
    }
    String ddl =
        "CREATE CATALOG IF NOT EXISTS paimon WITH ('type' = 'paimon', 'warehouse' = '"
            + warehouse.replace("'", "''")
            + "', 'cache-enabled' = 'false')";
    for (TableEnvironment env : List.of(batch, stream)) {
      env.executeSql("DROP CATALOG IF EXISTS paimon").await();
      env.executeSql(ddl).await();
      env.useCatalog("paimon");
    }
  }

  private TableEnvironment env(JsonNode command) {
    if (batch == null) throw new IllegalStateException("open first");
    return command.path("mode").asText("batch").equals("stream") ? stream : batch;
  }

  private void query(JsonNode command, StringBuilder text) throws Exception {
    TableResult result = env(command).executeSql(required(command, "sql").asText());
    List<String> columns = result.getResolvedSchema().getColumnNames();
    List<String> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = result.collect()) {
      while (it.hasNext()) rows.add(toJson(it.next(), columns).toString());
    }
    ObjectNode head = JSON.createObjectNode();
    head.put("ok", true);
    head.put("rows", rows.size());
    text.append(head).append('\n');
    for (String row : rows) text.append(row).append('\n');
  }

  private static ObjectNode toJson(Row row, List<String> columns) {
    ObjectNode node = JSON.createObjectNode();
    for (int i = 0; i < columns.size(); i++) {
      Object value = row.getField(i);
      String name = columns.get(i);
      if (value == null) {
        node.putNull(name);
      } else if (value instanceof Long || value instanceof Integer || value instanceof Short) {
        node.put(name, ((Number) value).longValue());
      } else if (value instanceof BigDecimal) {
        node.put(name, ((BigDecimal) value).toPlainString());
      } else {
        node.put(name, value.toString());
      }
    }
    return node;
  }

  private void streamStart(JsonNode command) throws Exception {
    String id = required(command, "id").asText();
    if (streams.containsKey(id)) throw new IllegalArgumentException("stream " + id + " runs");
    List<String> keys = new ArrayList<>();
    required(command, "keys").forEach(k -> keys.add(k.asText()));
    TableResult result = stream.executeSql(required(command, "sql").asText());
    List<String> columns = result.getResolvedSchema().getColumnNames();
    Stream s = new Stream(result, keys);
    s.reader =
        new Thread(
            () -> {
              try (CloseableIterator<Row> it = result.collect()) {
                while (it.hasNext()) {
                  Row row = it.next();
                  ObjectNode value = toJson(row, columns);
                  // Re-read, so that numbers compare as the parser makes them.
                  JsonNode normal = JSON.readTree(value.toString());
                  ObjectNode key = JSON.createObjectNode();
                  for (String k : keys) key.set(k, normal.get(k));
                  synchronized (s) {
                    if (row.getKind() == RowKind.INSERT || row.getKind() == RowKind.UPDATE_AFTER) {
                      s.rows.put(key, normal);
                    } else {
                      s.rows.remove(key);
                    }
                    s.notifyAll();
                  }
                }
              } catch (Throwable t) {
                synchronized (s) {
                  s.failure = t;
                  s.notifyAll();
                }
              }
            },
            "stream-" + id);
    s.reader.start();
    streams.put(id, s);
  }

  private Stream stream(JsonNode command) {
    Stream s = streams.get(required(command, "id").asText());
    if (s == null) throw new IllegalArgumentException("no stream " + command.get("id"));
    return s;
  }

  private void streamWait(JsonNode command, StringBuilder text) throws Exception {
    Stream s = stream(command);
    Set<JsonNode> expected = new HashSet<>();
    for (JsonNode row : required(command, "rows")) expected.add(JSON.readTree(row.toString()));
    long deadline =
        System.nanoTime()
            + TimeUnit.MILLISECONDS.toNanos(command.path("timeout_ms").asLong(60000));
    List<String> rows = new ArrayList<>();
    boolean matched;
    synchronized (s) {
      while (true) {
        matched = new HashSet<>(s.rows.values()).equals(expected);
        long left = deadline - System.nanoTime();
        if (matched || s.failure != null || left <= 0) break;
        // Woken by every row the reader folds in.
        TimeUnit.NANOSECONDS.timedWait(s, left);
      }
      if (s.failure != null && !matched) throw new RuntimeException("stream failed", s.failure);
      for (JsonNode row : s.rows.values()) rows.add(row.toString());
    }
    ObjectNode head = JSON.createObjectNode();
    head.put("ok", true);
    head.put("matched", matched);
    head.put("rows", rows.size());
    text.append(head).append('\n');
    for (String row : rows) text.append(row).append('\n');
  }

  private void streamStop(JsonNode command) throws Exception {
    Stream s = stream(command);
    streams.remove(command.get("id").asText());
    JobClient job =
        s.result
            .getJobClient()
            .orElseThrow(() -> new IllegalStateException("the stream has no job"));
    if (command.hasNonNull("savepoint")) {
      job.stopWithSavepoint(false, command.get("savepoint").asText(), SavepointFormatType.DEFAULT)
          .get();
    } else {
      job.cancel().get();
    }
    s.reader.join();
  }

  private void close() throws Exception {
    for (Stream s : streams.values()) {
      s.result.getJobClient().ifPresent(JobClient::cancel);
    }
    if (cluster != null) cluster.close();
  }
}
