package org.sluice.interop;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.index.HashBucketAssigner;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.RowPartitionKeyExtractor;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.EndOfScanException;
import org.apache.paimon.table.source.StreamTableScan;
import org.apache.paimon.table.source.TableRead;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;

/**
 * The Java Paimon oracle of Sluice's interop tests. Started once per test run; reads one JSON
 * command per line on stdin and answers each with one JSON line on stdout: {"ok": true, ...} (a
 * read adds "rows": N and then prints N row lines, each encoded as `sluice read --format jsonl`
 * prints it) or {"error": "..."}. A bad command never ends the program; end of input does.
 *
 * <p>Commands (all name "warehouse" and "table" as DB.TABLE, optional "branch"; the first
 * command on a warehouse may add "catalog_options" {key: value}, kept for its catalog):
 *
 * <ul>
 *   <li>read: optional "snapshot", "tag", "projection" [names], "filter" [[field, op, value]...]
 *       (a conjunction; op one of = != &lt; &lt;= &gt; &gt;= is_null is_not_null), "incremental"
 *       "FROM,TO" with "incremental_mode" delta | changelog (rows then lead with _ROW_KIND).
 *   <li>write: "rows" [{column: value, "_ROW_KIND": "+I"...}...], optional "overwrite" {partition
 *       spec} (an empty object overwrites the partitions the rows fall in).
 *   <li>compact: optional "full" (default true); every partition and bucket of the latest
 *       snapshot.
 *   <li>expire: "retain_max", optional "retain_min" (default 1).
 *   <li>create_table: "fields" [{"name", "type" (schema JSON type)}], optional "primary_keys",
 *       "partition_keys", "options".
 *   <li>create_tag: "tag", "snapshot"; create_branch: "new_branch", optional "from_tag".
 *   <li>snapshots: the ids of the table's snapshots ("ids").
 *   <li>system_table_type: "table" names a system table (DB.TABLE$NAME, sys.all_table_options);
 *       "fields" ["name TYPE"...]: its row type as SystemTableLoader makes it.
 *   <li>concurrent_start: "user_prefix", "commits" [{"kind": "write", "rows": [...]} or {"kind":
 *       "compact"}...]: runs the commits one after another in a background thread (commit i under
 *       the commit user prefix "USER_PREFIX-i") and answers at once, so that the test commits
 *       into the same table from Sluice meanwhile.
 *   <li>catalog: the catalog's own operations, "op" (see catalogOp).
 *   <li>concurrent_join: waits for that thread; "results" [{"ok": true} or {"error": ...}] per
 *       commit, and "snapshots" [{"id", "kind", "user"}] of the table.
 * </ul>
 */
public final class Oracle {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, Catalog> catalogs = new HashMap<>();
  private final PrintStream out;
  private IOManager ioManager;
  // The background commits of concurrent_start, and one result per commit.
  private Thread concurrent;
  private FileStoreTable concurrentTable;
  private final List<ObjectNode> concurrentResults = new ArrayList<>();

  private Oracle(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    // Paimon and Hadoop log to stdout through their defaults; keep stdout for answers only.
    PrintStream answers =
        new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, "UTF-8");
    System.setOut(System.err);
    Oracle oracle = new Oracle(answers);
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) continue;
      oracle.handle(line);
    }
  }

  private void handle(String line) {
    StringBuilder text = new StringBuilder();
    try {
      JsonNode command = JSON.readTree(line);
      String name = command.path("cmd").asText("");
      switch (name) {
        case "read":
          read(command, text);
          break;
        case "write":
          write(command, text);
          break;
        case "compact":
          compact(command, text);
          break;
        case "expire":
          expire(command, text);
          break;
        case "create_table":
          createTable(command, text);
          break;
        case "create_tag":
          table(command).createTag(command.get("tag").asText(), command.get("snapshot").asLong());
          ok(text);
          break;
        case "create_branch":
          createBranch(command, text);
          break;
        case "snapshots":
          snapshots(command, text);
          break;
        case "stream_read":
          streamRead(command, text);
          break;
        case "system_table_type":
          systemTableType(command, text);
          break;
        case "concurrent_start":
          concurrentStart(command, text);
          break;
        case "concurrent_join":
          concurrentJoin(command, text);
          break;
        case "catalog":
          catalogOp(command, text);
          break;
        default:
          throw new IllegalArgumentException("unknown cmd '" + name + "'");
      }
    } catch (Throwable t) {
      text.setLength(0);
      ObjectNode error = JSON.createObjectNode();
      StringWriter trace = new StringWriter();
      t.printStackTrace(new PrintWriter(trace));
      System.err.println(trace);
      error.put("error", t.getClass().getSimpleName() + ": " + t.getMessage());
      text.append(error).append('\n');
    }
    out.print(text);
    out.flush();
  }

  private static void ok(StringBuilder text) {
    text.append("{\"ok\": true}\n");
  }

  // Lookup (changelog, first-row, deletion vectors) spills to a temporary directory.
  private IOManager ioManager() {
    if (ioManager == null) {
      ioManager = IOManager.create(System.getProperty("java.io.tmpdir"));
    }
    return ioManager;
  }

  // The catalog of the command's "warehouse", opened on first use with the command's optional
  // "catalog_options" (an s3:// warehouse's s3.endpoint, s3.access-key, ...).
  private Catalog catalog(JsonNode command) throws Exception {
    String warehouse = required(command, "warehouse").asText();
    Catalog catalog = catalogs.get(warehouse);
    if (catalog == null) {
      Options options = new Options();
      options.set("warehouse", warehouse);
      // Sluice commits between commands: every command must see the table as it is on disk.
      options.set("cache-enabled", "false");
      Iterator<Map.Entry<String, JsonNode>> extra = command.path("catalog_options").fields();
      while (extra.hasNext()) {
        Map.Entry<String, JsonNode> option = extra.next();
        options.set(option.getKey(), option.getValue().asText());
      }
      catalog = CatalogFactory.createCatalog(CatalogContext.create(options));
      catalogs.put(warehouse, catalog);
    }
    return catalog;
  }

  private void systemTableType(JsonNode command, StringBuilder text) throws Exception {
    Identifier id = Identifier.fromString(required(command, "table").asText());
    RowType type = catalog(command).getTable(id).rowType();
    ObjectNode answer = JSON.createObjectNode();
    answer.put("ok", true);
    ArrayNode fields = answer.putArray("fields");
    for (DataField field : type.getFields()) fields.add(field.name() + " " + field.type());
    text.append(answer).append('\n');
  }

  private FileStoreTable table(JsonNode command) throws Exception {
    Identifier id = Identifier.fromString(required(command, "table").asText());
    FileStoreTable table = (FileStoreTable) catalog(command).getTable(id);
    if (command.hasNonNull("branch")) table = table.switchToBranch(command.get("branch").asText());
    return table;
  }

  private static JsonNode required(JsonNode command, String field) {
    JsonNode node = command.get(field);
    if (node == null || node.isNull()) {
      throw new IllegalArgumentException("missing field '" + field + "'");
    }
    return node;
  }

  private void read(JsonNode command, StringBuilder text) throws Exception {
    FileStoreTable table = table(command);
    Map<String, String> dynamic = new HashMap<>();
    if (command.hasNonNull("snapshot")) {
      dynamic.put("scan.snapshot-id", command.get("snapshot").asText());
    }
    if (command.hasNonNull("tag")) dynamic.put("scan.tag-name", command.get("tag").asText());
    boolean incremental = command.hasNonNull("incremental");
    if (incremental) {
      dynamic.put("incremental-between", command.get("incremental").asText());
      dynamic.put(
          "incremental-between-scan-mode", command.path("incremental_mode").asText("delta"));
    }
    if (!dynamic.isEmpty()) table = table.copy(dynamic);

    RowType rowType = table.rowType();
    ReadBuilder builder = table.newReadBuilder();
    RowType outputType = rowType;
    if (command.hasNonNull("projection")) {
      List<String> names = new ArrayList<>();
      command.get("projection").forEach(n -> names.add(n.asText()));
      int[] indices = new int[names.size()];
      for (int i = 0; i < indices.length; i++) {
        indices[i] = rowType.getFieldIndex(names.get(i));
        if (indices[i] < 0) throw new IllegalArgumentException("unknown column " + names.get(i));
      }
      builder.withProjection(indices);
      outputType = rowType.project(indices);
    }
    if (command.hasNonNull("filter")) builder.withFilter(filter(rowType, command.get("filter")));

    List<Split> splits = builder.newScan().plan().splits();
    List<String> rows = new ArrayList<>();
    List<InternalRow.FieldGetter> getters = new ArrayList<>();
    for (int i = 0; i < outputType.getFieldCount(); i++) {
      getters.add(InternalRow.createFieldGetter(outputType.getTypeAt(i), i));
    }
    final RowType type = outputType;
    try (RecordReader<InternalRow> reader =
        builder.newRead().executeFilter().createReader(splits)) {
      reader.forEachRemaining(
          row -> {
            ObjectNode node = JSON.createObjectNode();
            if (incremental) node.put("_ROW_KIND", row.getRowKind().shortString());
            for (int i = 0; i < type.getFieldCount(); i++) {
              DataField field = type.getFields().get(i);
              node.set(
                  field.name(), ValueJson.toJson(getters.get(i).getFieldOrNull(row), field.type()));
            }
            rows.add(node.toString());
          });
    }
    ObjectNode head = JSON.createObjectNode();
    head.put("ok", true);
    head.put("rows", rows.size());
    head.put("splits", splits.size());
    text.append(head).append('\n');
    for (String row : rows) text.append(row).append('\n');
  }

  // A streaming read (StreamTableScan) with the command's "options" (scan.mode, ...), planned
  // until it has caught up with the latest snapshot at the start: every row with its row kind
  // and "_PLAN", the number of the plan that returned it.
  private void streamRead(JsonNode command, StringBuilder text) throws Exception {
    FileStoreTable table = table(command);
    Map<String, String> dynamic = new HashMap<>();
    Iterator<Map.Entry<String, JsonNode>> options = command.path("options").fields();
    while (options.hasNext()) {
      Map.Entry<String, JsonNode> option = options.next();
      dynamic.put(option.getKey(), option.getValue().asText());
    }
    if (!dynamic.isEmpty()) table = table.copy(dynamic);
    Long latest = table.snapshotManager().latestSnapshotId();
    ReadBuilder builder = table.newReadBuilder();
    StreamTableScan scan = builder.newStreamScan();
    TableRead read = builder.newRead();
    RowType type = table.rowType();
    List<InternalRow.FieldGetter> getters = new ArrayList<>();
    for (int i = 0; i < type.getFieldCount(); i++) {
      getters.add(InternalRow.createFieldGetter(type.getTypeAt(i), i));
    }
    List<String> rows = new ArrayList<>();
    int plans = 0;
    while (true) {
      List<Split> splits;
      try {
        splits = scan.plan().splits();
      } catch (EndOfScanException e) {
        break;
      }
      if (splits.isEmpty()) {
        Long next = scan.checkpoint();
        if (latest == null || (next != null && next > latest)) break;
        continue;
      }
      final int plan = plans++;
      try (RecordReader<InternalRow> reader = read.createReader(splits)) {
        reader.forEachRemaining(
            row -> {
              ObjectNode node = JSON.createObjectNode();
              node.put("_ROW_KIND", row.getRowKind().shortString());
              for (int i = 0; i < type.getFieldCount(); i++) {
                DataField field = type.getFields().get(i);
                node.set(
                    field.name(),
                    ValueJson.toJson(getters.get(i).getFieldOrNull(row), field.type()));
              }
              node.put("_PLAN", plan);
              rows.add(node.toString());
            });
      }
    }
    ObjectNode head = JSON.createObjectNode();
    head.put("ok", true);
    head.put("rows", rows.size());
    head.put("plans", plans);
    text.append(head).append('\n');
    for (String row : rows) text.append(row).append('\n');
  }

  private static Predicate filter(RowType rowType, JsonNode conjuncts) {
    PredicateBuilder builder = new PredicateBuilder(rowType);
    List<Predicate> predicates = new ArrayList<>();
    for (JsonNode c : conjuncts) {
      String field = c.get(0).asText();
      String op = c.get(1).asText();
      int index = rowType.getFieldIndex(field);
      if (index < 0) throw new IllegalArgumentException("unknown filter column " + field);
      DataType type = rowType.getTypeAt(index);
      Object literal = c.size() > 2 ? ValueJson.fromJson(c.get(2), type) : null;
      switch (op) {
        case "=":
          predicates.add(builder.equal(index, literal));
          break;
        case "!=":
          predicates.add(builder.notEqual(index, literal));
          break;
        case "<":
          predicates.add(builder.lessThan(index, literal));
          break;
        case "<=":
          predicates.add(builder.lessOrEqual(index, literal));
          break;
        case ">":
          predicates.add(builder.greaterThan(index, literal));
          break;
        case ">=":
          predicates.add(builder.greaterOrEqual(index, literal));
          break;
        case "is_null":
          predicates.add(builder.isNull(index));
          break;
        case "is_not_null":
          predicates.add(builder.isNotNull(index));
          break;
        default:
          throw new IllegalArgumentException("unknown filter op " + op);
      }
    }
    return PredicateBuilder.and(predicates);
  }

  private void write(JsonNode command, StringBuilder text) throws Exception {
    FileStoreTable table = table(command);
    Map<String, String> overwrite = null;
    if (command.hasNonNull("overwrite")) {
      overwrite = new LinkedHashMap<>();
      Iterator<Map.Entry<String, JsonNode>> it = command.get("overwrite").fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        overwrite.put(e.getKey(), e.getValue().asText());
      }
    }
    int count = writeRows(table, required(command, "rows"), overwrite);
    ObjectNode head = JSON.createObjectNode();
    head.put("ok", true);
    head.put("written", count);
    Long latest = table.snapshotManager().latestSnapshotId();
    if (latest != null) head.put("snapshot", latest);
    text.append(head).append('\n');
  }

  // Writes `rows` in one commit (overwriting the partitions of `overwrite` when not null).
  private int writeRows(FileStoreTable table, JsonNode rows, Map<String, String> overwrite)
      throws Exception {
    RowType rowType = table.rowType();
    BatchWriteBuilder builder = table.newBatchWriteBuilder();
    if (overwrite != null) builder = builder.withOverwrite(overwrite);
    int count = 0;
    List<CommitMessage> messages;
    // Dynamic-bucket tables: the caller assigns buckets, through the hash index (as Flink's
    // bucket assigner operator does).
    HashBucketAssigner assigner = null;
    RowPartitionKeyExtractor keys = null;
    if (table.bucketMode() == BucketMode.HASH_DYNAMIC) {
      assigner =
          new HashBucketAssigner(
              table.snapshotManager(),
              "sluice-interop",
              table.store().newIndexFileHandler(),
              1,
              1,
              0,
              table.coreOptions().dynamicBucketTargetRowNum(),
              -1);
      keys = new RowPartitionKeyExtractor(table.schema());
    }
    try (BatchTableWrite write = builder.newWrite().withIOManager(ioManager())) {
      for (JsonNode row : rows) {
        GenericRow internal = toRow(row, rowType);
        if (assigner != null) {
          int bucket =
              assigner.assign(keys.partition(internal), keys.trimmedPrimaryKey(internal).hashCode());
          write.write(internal, bucket);
        } else {
          write.write(internal);
        }
        count++;
      }
      messages = write.prepareCommit();
    }
    try (BatchTableCommit commit = builder.newCommit()) {
      commit.commit(messages);
    }
    return count;
  }

  private static GenericRow toRow(JsonNode row, RowType rowType) {
    Set<String> known = new LinkedHashSet<>(rowType.getFieldNames());
    Iterator<String> names = row.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!name.equals("_ROW_KIND") && !known.contains(name)) {
        throw new IllegalArgumentException("unknown column '" + name + "' in " + row);
      }
    }
    RowKind kind =
        row.hasNonNull("_ROW_KIND")
            ? RowKind.fromShortString(row.get("_ROW_KIND").asText())
            : RowKind.INSERT;
    GenericRow result = new GenericRow(kind, rowType.getFieldCount());
    for (int i = 0; i < rowType.getFieldCount(); i++) {
      DataField field = rowType.getFields().get(i);
      result.setField(i, ValueJson.fromJson(row.get(field.name()), field.type()));
    }
    return result;
  }

  private void compact(JsonNode command, StringBuilder text) throws Exception {
    compactTable(table(command), command.path("full").asBoolean(true));
    ok(text);
  }

  // Compacts every partition and bucket of the latest snapshot in one commit.
  private void compactTable(FileStoreTable table, boolean full) throws Exception {
    Map<BinaryRow, Set<Integer>> buckets = new LinkedHashMap<>();
    for (Split split : table.newReadBuilder().newScan().plan().splits()) {
      DataSplit data = (DataSplit) split;
      buckets.computeIfAbsent(data.partition(), p -> new LinkedHashSet<>()).add(data.bucket());
    }
    BatchWriteBuilder builder = table.newBatchWriteBuilder();
    List<CommitMessage> messages;
    try (BatchTableWrite write = builder.newWrite().withIOManager(ioManager())) {
      for (Map.Entry<BinaryRow, Set<Integer>> e : buckets.entrySet()) {
        for (int bucket : e.getValue()) write.compact(e.getKey(), bucket, full);
      }
      messages = write.prepareCommit();
    }
    try (BatchTableCommit commit = builder.newCommit()) {
      commit.commit(messages);
    }
  }

  private void expire(JsonNode command, StringBuilder text) throws Exception {
    FileStoreTable table = table(command);
    ExpireConfig config =
        ExpireConfig.builder()
            .snapshotRetainMax(required(command, "retain_max").asInt())
            .snapshotRetainMin(command.path("retain_min").asInt(1))
            .snapshotTimeRetain(Duration.ZERO)
            .build();
    int expired = table.newExpireSnapshots().config(config).expire();
    ObjectNode head = JSON.createObjectNode();
    head.put("ok", true);
    head.put("expired", expired);
    text.append(head).append('\n');
  }

  private void createTable(JsonNode command, StringBuilder text) throws Exception {
    Identifier id = Identifier.fromString(required(command, "table").asText());
    Catalog catalog = catalog(command);
    catalog.createDatabase(id.getDatabaseName(), true);
    Schema.Builder schema = Schema.newBuilder();
    for (JsonNode field : required(command, "fields")) {
      schema.column(field.get("name").asText(), DataTypeJsonParser.parseDataType(field.get("type")));
    }
    List<String> keys = new ArrayList<>();
    command.path("primary_keys").forEach(k -> keys.add(k.asText()));
    if (!keys.isEmpty()) schema.primaryKey(keys);
    List<String> partitions = new ArrayList<>();
    command.path("partition_keys").forEach(k -> partitions.add(k.asText()));
    if (!partitions.isEmpty()) schema.partitionKeys(partitions);
    Iterator<Map.Entry<String, JsonNode>> options = command.path("options").fields();
    while (options.hasNext()) {
      Map.Entry<String, JsonNode> e = options.next();
      schema.option(e.getKey(), e.getValue().asText());
    }
    catalog.createTable(id, schema.build(), false);
    ok(text);
  }

  // The catalog's own operations, for catalogs shared through a metastore (the REST catalog
  // tests, issue 35): "op" list_databases | create_database | drop_database ("database",
  // optional "cascade") | list_tables ("database") | alter_table ("table", "changes": [{"add_column"
  // NAME, "type" JSON type} | {"set_option" KEY, "value" V} | {"rename_column" FROM, "to" TO} |
  // {"drop_column" NAME}]) | rename_table ("table", "to") | drop_table ("table") | get_table
  // ("table": its "schema_id", "fields" ["name TYPE"...] and "path"). Lists answer "names".
  private void catalogOp(JsonNode command, StringBuilder text) throws Exception {
    Catalog catalog = catalog(command);
    String op = required(command, "op").asText();
    ObjectNode answer = JSON.createObjectNode();
    answer.put("ok", true);
    switch (op) {
      case "list_databases":
        catalog.listDatabases().forEach(answer.putArray("names")::add);
        break;
      case "create_database":
        catalog.createDatabase(required(command, "database").asText(), false);
        break;
      case "drop_database":
        catalog.dropDatabase(
            required(command, "database").asText(), false, command.path("cascade").asBoolean());
        break;
      case "list_tables":
        catalog.listTables(required(command, "database").asText())
            .forEach(answer.putArray("names")::add);
        break;
      case "alter_table":
        {
          List<org.apache.paimon.schema.SchemaChange> changes = new ArrayList<>();
          for (JsonNode change : required(command, "changes")) {
            if (change.has("add_column")) {
              changes.add(
                  org.apache.paimon.schema.SchemaChange.addColumn(
                      change.get("add_column").asText(),
                      DataTypeJsonParser.parseDataType(change.get("type"))));
            } else if (change.has("set_option")) {
              changes.add(
                  org.apache.paimon.schema.SchemaChange.setOption(
                      change.get("set_option").asText(), change.get("value").asText()));
            } else if (change.has("rename_column")) {
              changes.add(
                  org.apache.paimon.schema.SchemaChange.renameColumn(
                      change.get("rename_column").asText(), change.get("to").asText()));
            } else if (change.has("drop_column")) {
              changes.add(
                  org.apache.paimon.schema.SchemaChange.dropColumn(
                      change.get("drop_column").asText()));
            } else {
              throw new IllegalArgumentException("unknown change " + change);
            }
          }
          catalog.alterTable(
              Identifier.fromString(required(command, "table").asText()), changes, false);
          break;
        }
      case "rename_table":
        catalog.renameTable(
            Identifier.fromString(required(command, "table").asText()),
            Identifier.fromString(required(command, "to").asText()),
            false);
        break;
      case "drop_table":
        catalog.dropTable(Identifier.fromString(required(command, "table").asText()), false);
        break;
      case "get_table":
        {
          FileStoreTable table =
              (FileStoreTable)
                  catalog.getTable(Identifier.fromString(required(command, "table").asText()));
          answer.put("schema_id", table.schema().id());
          answer.put("path", table.location().toString());
          ArrayNode fields = answer.putArray("fields");
          for (DataField field : table.rowType().getFields()) {
            fields.add(field.name() + " " + field.type());
          }
          break;
        }
      default:
        throw new IllegalArgumentException("unknown catalog op '" + op + "'");
    }
    text.append(answer).append('\n');
  }

  private void createBranch(JsonNode command, StringBuilder text) throws Exception {
    FileStoreTable table = table(command);
    String name = required(command, "new_branch").asText();
    if (command.hasNonNull("from_tag")) {
      table.createBranch(name, command.get("from_tag").asText());
    } else {
      table.createBranch(name);
    }
    ok(text);
  }

  private void concurrentStart(JsonNode command, StringBuilder text) throws Exception {
    if (concurrent != null) throw new IllegalStateException("concurrent commits already running");
    FileStoreTable table = table(command);
    String prefix = required(command, "user_prefix").asText();
    JsonNode commits = required(command, "commits");
    concurrentResults.clear();
    concurrentTable = table;
    concurrent =
        new Thread(
            () -> {
              int index = 0;
              for (JsonNode commit : commits) {
                ObjectNode result = JSON.createObjectNode();
                try {
                  // Java names each commit user "<prefix>_<uuid>": the test finds commit i's
                  // snapshots by its prefix.
                  FileStoreTable own =
                      table.copy(Map.of("commit.user-prefix", prefix + "-" + index));
                  if (commit.path("kind").asText().equals("compact")) {
                    compactTable(own, true);
                  } else {
                    writeRows(own, required(commit, "rows"), null);
                  }
                  result.put("ok", true);
                } catch (Throwable t) {
                  t.printStackTrace();
                  result.put("error", t.getClass().getSimpleName() + ": " + t.getMessage());
                }
                synchronized (concurrentResults) {
                  concurrentResults.add(result);
                }
                index++;
              }
            },
            "concurrent-commits");
    concurrent.start();
    ok(text);
  }

  private void concurrentJoin(JsonNode command, StringBuilder text) throws Exception {
    if (concurrent == null) throw new IllegalStateException("no concurrent commits running");
    concurrent.join();
    concurrent = null;
    ObjectNode head = JSON.createObjectNode();
    head.put("ok", true);
    ArrayNode results = head.putArray("results");
    synchronized (concurrentResults) {
      concurrentResults.forEach(results::add);
    }
    ArrayNode snapshots = head.putArray("snapshots");
    Iterator<org.apache.paimon.Snapshot> it = concurrentTable.snapshotManager().snapshots();
    while (it.hasNext()) {
      org.apache.paimon.Snapshot snapshot = it.next();
      ObjectNode node = snapshots.addObject();
      node.put("id", snapshot.id());
      node.put("kind", snapshot.commitKind().toString());
      node.put("user", snapshot.commitUser());
    }
    concurrentTable = null;
    text.append(head).append('\n');
  }

  private void snapshots(JsonNode command, StringBuilder text) throws Exception {
    FileStoreTable table = table(command);
    ObjectNode head = JSON.createObjectNode();
    head.put("ok", true);
    ArrayNode ids = head.putArray("ids");
    Iterator<org.apache.paimon.Snapshot> it = table.snapshotManager().snapshots();
    while (it.hasNext()) ids.add(it.next().id());
    text.append(head).append('\n');
  }
}
