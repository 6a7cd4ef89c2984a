#include "sluice/cdc/kafka/kafka_source.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <regex>

#include "sluice/cdc/action_arguments.h"
#include "sluice/secret_mask.h"

namespace sluice {

namespace {

using Clock = std::chrono::steady_clock;

std::string SplitName(const std::string& topic, int32_t partition) {
  return topic + "-" + std::to_string(partition);
}

struct ConfDeleter {
  void operator()(rd_kafka_conf_t* conf) const { rd_kafka_conf_destroy(conf); }
};
struct ConsumerDeleter {
  void operator()(rd_kafka_t* consumer) const {
    rd_kafka_consumer_close(consumer);
    rd_kafka_destroy(consumer);
  }
};
struct ListDeleter {
  void operator()(rd_kafka_topic_partition_list_t* list) const {
    rd_kafka_topic_partition_list_destroy(list);
  }
};
struct MetadataDeleter {
  void operator()(const rd_kafka_metadata_t* metadata) const {
    rd_kafka_metadata_destroy(metadata);
  }
};
struct MessageDeleter {
  void operator()(rd_kafka_message_t* message) const { rd_kafka_message_destroy(message); }
};
struct QueueDeleter {
  void operator()(rd_kafka_queue_t* queue) const { rd_kafka_queue_destroy(queue); }
};
using PartitionList = std::unique_ptr<rd_kafka_topic_partition_list_t, ListDeleter>;

// The last warning or error librdkafka reported from its threads, so that a timed-out request
// can say why ("Connect to ipv4#127.0.0.1:1 failed: Connection refused"). librdkafka's
// messages carry no setting values.
class ClientLog {
 public:
  void Record(const char* line) {
    std::lock_guard<std::mutex> lock(mu_);
    last_ = line;
  }
  std::string Last() const {
    std::lock_guard<std::mutex> lock(mu_);
    return last_;
  }

 private:
  mutable std::mutex mu_;
  std::string last_;
};

constexpr int kSyslogWarning = 4;

void LogCallback(const rd_kafka_t* client, int level, const char* facility, const char* line) {
  if (level > kSyslogWarning) return;
  if (auto* log = static_cast<ClientLog*>(rd_kafka_opaque(client))) log->Record(line);
}

void ErrorCallback(rd_kafka_t* client, int err, const char* reason, void* opaque) {
  static_cast<ClientLog*>(opaque)->Record(reason);
}

const char* TimestampTypeName(rd_kafka_timestamp_type_t type) {
  switch (type) {
    case RD_KAFKA_TIMESTAMP_CREATE_TIME:
      return "CreateTime";
    case RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME:
      return "LogAppendTime";
    case RD_KAFKA_TIMESTAMP_NOT_AVAILABLE:
      break;
  }
  return "NoTimestampType";
}

// Sets `slot` to the `size` bytes at `bytes` (nullopt when null), in the string it holds when
// it holds one: a reused message keeps its storage.
void AssignBytes(const void* bytes, size_t size, std::optional<std::string>* slot) {
  if (bytes == nullptr) {
    slot->reset();
  } else if (slot->has_value()) {
    (*slot)->assign(static_cast<const char*>(bytes), size);
  } else {
    slot->emplace(static_cast<const char*>(bytes), size);
  }
}

}  // namespace

struct KafkaSource::Rep {
  struct Split {
    std::string topic;
    int32_t partition = 0;
    int64_t next = 0;
  };

  KafkaSourceOptions options;
  std::vector<std::string> warnings;
  std::optional<std::regex> pattern;
  // Declared before the consumer, whose threads report into it: destroyed after it.
  ClientLog log;
  // Until Open hands it to the consumer.
  std::unique_ptr<rd_kafka_conf_t, ConfDeleter> conf;
  std::unique_ptr<rd_kafka_t, ConsumerDeleter> consumer;
  // The consumer's queue (what rd_kafka_consumer_poll serves), read a batch at a time. Declared
  // after the consumer: released before it is closed, as librdkafka requires.
  std::unique_ptr<rd_kafka_queue_t, QueueDeleter> queue;
  // Entries are added or overwritten, never erased: iterators into it stay valid.
  std::map<std::string, Split> splits;
  // The split of the last message polled: consecutive messages mostly share one.
  std::map<std::string, Split>::iterator last_split = splits.end();
  Clock::time_point next_discovery;

  int TimeoutMs() const { return static_cast<int>(options.request_timeout.count()); }

  std::string Where() const {
    std::string where = "kafka " + options.bootstrap_servers;
    if (!options.topic_pattern.empty()) return where + " topic-pattern " + options.topic_pattern;
    where += " topics ";
    for (size_t i = 0; i < options.topics.size(); ++i) {
      if (i > 0) where += ';';
      where += options.topics[i];
    }
    return where;
  }

  // "<where>: <what>: <librdkafka's error>", with the client's last complaint when there is one.
  std::string Describe(const std::string& what, rd_kafka_resp_err_t err) const {
    std::string text = Where() + ": " + what + ": " + rd_kafka_err2str(err);
    std::string last = log.Last();
    if (!last.empty()) text += " (" + last + ")";
    return text;
  }

  // The partitions of the configured topics, or of the topics matching the pattern. A named
  // topic that is missing is NotFound when `require_topics`, skipped otherwise.
  Result<std::vector<Split>> ListPartitions(bool require_topics) {
    const rd_kafka_metadata_t* raw = nullptr;
    rd_kafka_resp_err_t err = rd_kafka_metadata(consumer.get(), 1, nullptr, &raw, TimeoutMs());
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Status::IOError(
          Describe("cannot list the topics within " + std::to_string(TimeoutMs()) + " ms", err));
    }
    std::unique_ptr<const rd_kafka_metadata_t, MetadataDeleter> metadata(raw);
    std::map<std::string, const rd_kafka_metadata_topic_t*> by_name;
    for (int i = 0; i < metadata->topic_cnt; ++i) {
      by_name[metadata->topics[i].topic] = &metadata->topics[i];
    }
    std::vector<const rd_kafka_metadata_topic_t*> chosen;
    if (pattern.has_value()) {
      for (const auto& [name, topic] : by_name) {
        // Internal topics (__consumer_offsets) are not data, as the Java client has it.
        if (name.starts_with("__") || !std::regex_match(name, *pattern)) continue;
        if (topic->err == RD_KAFKA_RESP_ERR_NO_ERROR) chosen.push_back(topic);
      }
    } else {
      for (const std::string& name : options.topics) {
        auto it = by_name.find(name);
        bool missing =
            it == by_name.end() || it->second->err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART;
        if (missing) {
          if (!require_topics) continue;
          return Status::NotFound("kafka topic '" + name + "' does not exist at " +
                                  options.bootstrap_servers);
        }
        if (it->second->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
          if (!require_topics) continue;
          return Status::IOError(Describe("topic '" + name + "'", it->second->err));
        }
        chosen.push_back(it->second);
      }
    }
    std::vector<Split> result;
    for (const rd_kafka_metadata_topic_t* topic : chosen) {
      for (int p = 0; p < topic->partition_cnt; ++p) {
        result.push_back(Split{topic->topic, topic->partitions[p].id, 0});
      }
    }
    return result;
  }

  Result<std::pair<int64_t, int64_t>> Watermarks(const Split& split, int timeout_ms = -1) {
    int64_t low = -1;
    int64_t high = -1;
    rd_kafka_resp_err_t err =
        rd_kafka_query_watermark_offsets(consumer.get(), split.topic.c_str(), split.partition, &low,
                                         &high, timeout_ms < 0 ? TimeoutMs() : timeout_ms);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Status::IOError(
          Describe("cannot read the offsets of " + SplitName(split.topic, split.partition), err));
    }
    return std::make_pair(low, high);
  }

  PartitionList MakeList(const std::vector<Split>& splits, int64_t offset) const {
    PartitionList list(rd_kafka_topic_partition_list_new(static_cast<int>(splits.size())));
    for (const Split& split : splits) {
      rd_kafka_topic_partition_list_add(list.get(), split.topic.c_str(), split.partition)->offset =
          offset;
    }
    return list;
  }

  // Sets the `next` of every split as `mode` says.
  Status ResolveStart(KafkaStartupMode mode, std::vector<Split>* todo) {
    if (todo->empty()) return Status::OK();
    switch (mode) {
      case KafkaStartupMode::kEarliest:
      case KafkaStartupMode::kLatest:
        for (Split& split : *todo) {
          SLUICE_ASSIGN_OR_RETURN(auto marks, Watermarks(split));
          split.next = mode == KafkaStartupMode::kEarliest ? marks.first : marks.second;
        }
        return Status::OK();
      case KafkaStartupMode::kSpecificOffsets:
        for (Split& split : *todo) {
          auto it = options.specific_offsets.find(split.partition);
          if (it != options.specific_offsets.end()) {
            split.next = it->second;
          } else {
            SLUICE_ASSIGN_OR_RETURN(auto marks, Watermarks(split));
            split.next = marks.first;
          }
        }
        return Status::OK();
      case KafkaStartupMode::kTimestamp: {
        PartitionList list = MakeList(*todo, options.startup_timestamp_ms);
        rd_kafka_resp_err_t err =
            rd_kafka_offsets_for_times(consumer.get(), list.get(), TimeoutMs());
        if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
          return Status::IOError(Describe("cannot look up the offsets of timestamp " +
                                              std::to_string(options.startup_timestamp_ms),
                                          err));
        }
        for (int i = 0; i < list->cnt; ++i) {
          Split& split = (*todo)[i];
          const rd_kafka_topic_partition_t& found = list->elems[i];
          if (found.err != RD_KAFKA_RESP_ERR_NO_ERROR) {
            return Status::IOError(Describe("cannot look up the offset of timestamp " +
                                                std::to_string(options.startup_timestamp_ms) +
                                                " in " + SplitName(split.topic, split.partition),
                                            found.err));
          }
          if (found.offset >= 0) {
            split.next = found.offset;
          } else {
            // No message at or after the timestamp: start at the end, as Flink does.
            SLUICE_ASSIGN_OR_RETURN(auto marks, Watermarks(split));
            split.next = marks.second;
          }
        }
        return Status::OK();
      }
      case KafkaStartupMode::kGroupOffsets: {
        PartitionList list = MakeList(*todo, RD_KAFKA_OFFSET_INVALID);
        rd_kafka_resp_err_t err = rd_kafka_committed(consumer.get(), list.get(), TimeoutMs());
        if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
          return Status::IOError(Describe(
              "cannot read the offsets of consumer group '" + options.group_id + "'", err));
        }
        for (int i = 0; i < list->cnt; ++i) {
          Split& split = (*todo)[i];
          const rd_kafka_topic_partition_t& found = list->elems[i];
          if (found.err != RD_KAFKA_RESP_ERR_NO_ERROR) {
            return Status::IOError(Describe("cannot read the offset of consumer group '" +
                                                options.group_id + "' for " +
                                                SplitName(split.topic, split.partition),
                                            found.err));
          }
          if (found.offset >= 0) {
            split.next = found.offset;
            continue;
          }
          if (options.offset_reset == KafkaOffsetReset::kNone) {
            return Status::NotFound(
                "kafka consumer group '" + options.group_id + "' has no offset for " +
                SplitName(split.topic, split.partition) + " at " + options.bootstrap_servers +
                " and properties.auto.offset.reset is none");
          }
          SLUICE_ASSIGN_OR_RETURN(auto marks, Watermarks(split));
          split.next =
              options.offset_reset == KafkaOffsetReset::kEarliest ? marks.first : marks.second;
        }
        return Status::OK();
      }
    }
    return Status::OK();
  }

  // Assigns every split at its next offset. The whole set each time: in librdkafka,
  // incremental assignment belongs to the cooperative group protocol, which this consumer does
  // not join. Messages of the previous assignment still queued are dropped by librdkafka, and
  // Poll skips any before `next`.
  Status AssignAll() {
    PartitionList list(rd_kafka_topic_partition_list_new(static_cast<int>(splits.size())));
    for (const auto& [name, split] : splits) {
      rd_kafka_topic_partition_list_add(list.get(), split.topic.c_str(), split.partition)->offset =
          split.next;
    }
    rd_kafka_resp_err_t err = rd_kafka_assign(consumer.get(), list.get());
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Status::IOError(Describe("cannot assign the partitions", err));
    }
    return Status::OK();
  }

  // Adds the partitions (and, for a pattern, the topics) that appeared since the last look,
  // from their earliest offset. Brokers that do not answer now are asked again next time.
  Status Discover() {
    next_discovery = Clock::now() + options.discovery_interval;
    auto listed = ListPartitions(/*require_topics=*/false);
    if (!listed.ok()) return Status::OK();
    std::vector<Split> fresh;
    for (Split& split : *listed) {
      if (!splits.contains(SplitName(split.topic, split.partition))) fresh.push_back(split);
    }
    if (fresh.empty() || !ResolveStart(KafkaStartupMode::kEarliest, &fresh).ok()) {
      return Status::OK();
    }
    for (Split& split : fresh) splits[SplitName(split.topic, split.partition)] = split;
    return AssignAll();
  }

  // The Status for an error message of the consumer, or OK for one librdkafka retries itself.
  Status ConsumerError(const rd_kafka_message_t& message) const {
    std::string where = message.rkt != nullptr
                            ? SplitName(rd_kafka_topic_name(message.rkt), message.partition)
                            : std::string("the consumer");
    switch (message.err) {
      case RD_KAFKA_RESP_ERR__FATAL: {
        char reason[512];
        rd_kafka_fatal_error(consumer.get(), reason, sizeof(reason));
        return Status::IOError(Where() + ": fatal client error: " + reason);
      }
      case RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART:
      case RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC:
      case RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION:
        return Status::NotFound(Describe(where + " no longer exists", message.err));
      case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
      case RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED:
      case RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED:
      case RD_KAFKA_RESP_ERR__AUTHENTICATION:
      case RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED:
        return Status::IOError(Describe("cannot read " + where, message.err));
      case RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE:
      case RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET:
        return Status::OutOfRange(
            Describe("the offset of " + where + " is out of range", message.err));
      default:
        return Status::OK();
    }
  }
};

KafkaSource::KafkaSource(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

KafkaSource::~KafkaSource() = default;

Result<std::unique_ptr<KafkaSource>> KafkaSource::Make(
    const std::vector<std::pair<std::string, std::string>>& kafka_conf) {
  auto rep = std::make_unique<Rep>();
  SLUICE_ASSIGN_OR_RETURN(rep->options, KafkaSourceOptions::Parse(kafka_conf));
  const KafkaSourceOptions& options = rep->options;
  if (!options.topic_pattern.empty()) {
    // KafkaSourceOptions::Parse checked the pattern; std::regex throws on nothing else here.
    rep->pattern.emplace(options.topic_pattern);
  }
  rep->conf.reset(rd_kafka_conf_new());
  char error[512];
  // Before librdkafka 2.2 (fetch.queue.backoff.ms), a partition whose prefetch queue reaches
  // queued.min.messages stops fetching for a whole second (librdkafka #2879). At its default of
  // 100,000 a sync drains that many small change messages in a fraction of the second, then
  // waits: 2 M debezium-json messages took 20 s instead of 14, with one commit round per
  // second more. A larger count leaves more to the byte bound (queued.max.messages.kbytes).
  // The user's properties below still set either.
  constexpr const char* kQueuedMinMessages = "200000";
  if (rd_kafka_conf_set(rep->conf.get(), "queued.min.messages", kQueuedMinMessages, error,
                        sizeof(error)) != RD_KAFKA_CONF_OK) {
    return Status::InvalidArgument(std::string("queued.min.messages: ") + error);
  }
  for (const auto& [key, value] : options.client_properties) {
    switch (rd_kafka_conf_set(rep->conf.get(), key.c_str(), value.c_str(), error, sizeof(error))) {
      case RD_KAFKA_CONF_OK:
        break;
      case RD_KAFKA_CONF_UNKNOWN:
        rep->warnings.push_back("kafka_conf properties." + key +
                                " is not a librdkafka setting; skipped");
        break;
      case RD_KAFKA_CONF_INVALID:
        // librdkafka's message quotes the value.
        return Status::InvalidArgument(
            "kafka_conf properties." + key + "='" + MaskedOptionValue(key, value) +
            "': " + (IsSecretOptionKey(key) ? std::string("invalid value") : std::string(error)));
    }
  }
  std::vector<std::pair<std::string, std::string>> fixed = {
      {"bootstrap.servers", options.bootstrap_servers},
      // Positions are the runtime's; the group only sees what CommitGroupOffsets sends.
      {"enable.auto.commit", "false"},
      {"enable.auto.offset.store", "false"},
      {"enable.partition.eof", "false"},
      // Where a fetch goes when its offset is out of range (a resumed offset deleted by
      // retention): as the group-offsets fallback says.
      {"auto.offset.reset", options.offset_reset == KafkaOffsetReset::kEarliest ? "earliest"
                            : options.offset_reset == KafkaOffsetReset::kLatest ? "latest"
                                                                                : "error"},
  };
  // librdkafka 2.0 refuses to assign partitions without a group ("Unknown group"); with no group
  // configured, a placeholder one takes its place, never committed to nor joined.
  fixed.emplace_back("group.id", options.group_id.empty() ? "sluice-cdc" : options.group_id);
  for (const auto& [key, value] : fixed) {
    if (rd_kafka_conf_set(rep->conf.get(), key.c_str(), value.c_str(), error, sizeof(error)) !=
        RD_KAFKA_CONF_OK) {
      return Status::InvalidArgument("kafka_conf properties." + key + "='" +
                                     MaskedOptionValue(key, value) + "': " + error);
    }
  }
  rd_kafka_conf_set_opaque(rep->conf.get(), &rep->log);
  rd_kafka_conf_set_log_cb(rep->conf.get(), LogCallback);
  rd_kafka_conf_set_error_cb(rep->conf.get(), ErrorCallback);
  return std::unique_ptr<KafkaSource>(new KafkaSource(std::move(rep)));
}

Status KafkaSource::Open(const SourceOffsets& resume) {
  Rep& rep = *rep_;
  if (rep.consumer != nullptr || rep.conf == nullptr) {
    return Status::InvalidArgument(rep.Where() + ": the source is already open");
  }
  char error[512];
  // rd_kafka_new owns the configuration only when it succeeds.
  rd_kafka_t* consumer = rd_kafka_new(RD_KAFKA_CONSUMER, rep.conf.get(), error, sizeof(error));
  if (consumer == nullptr) {
    return Status::IOError(rep.Where() + ": cannot create the consumer: " + error);
  }
  rep.conf.release();
  rep.consumer.reset(consumer);
  // Never null: Make always sets group.id.
  rep.queue.reset(rd_kafka_queue_get_consumer(consumer));
  if (rep.queue == nullptr) return Status::IOError(rep.Where() + ": the consumer has no queue");

  SLUICE_ASSIGN_OR_RETURN(std::vector<Rep::Split> listed,
                          rep.ListPartitions(/*require_topics=*/true));
  std::vector<Rep::Split> todo;
  for (Rep::Split& split : listed) {
    int64_t resumed = resume.Next(SplitName(split.topic, split.partition));
    if (resumed >= 0) {
      split.next = resumed;
      rep.splits[SplitName(split.topic, split.partition)] = split;
    } else {
      todo.push_back(split);
    }
  }
  SLUICE_RETURN_NOT_OK(rep.ResolveStart(rep.options.startup_mode, &todo));
  for (const Rep::Split& split : todo) rep.splits[SplitName(split.topic, split.partition)] = split;
  rep.next_discovery = Clock::now() + rep.options.discovery_interval;
  return rep.AssignAll();
}

Status KafkaSource::Poll(std::chrono::milliseconds timeout, size_t max_messages,
                         std::vector<SourceMessage>* out) {
  Rep& rep = *rep_;
  if (rep.consumer == nullptr) {
    out->clear();
    return Status::InvalidArgument(rep.Where() + ": Poll before Open");
  }
  if (Clock::now() >= rep.next_discovery) {
    Status discovered = rep.Discover();
    if (!discovered.ok()) {
      out->clear();
      return discovered;
    }
  }
  const Clock::time_point deadline = Clock::now() + timeout;
  // Messages are taken from the consumer's queue in batches (one lock and one clock reading per
  // batch, where rd_kafka_consumer_poll takes them per message): the first waits up to the
  // deadline for one message, the next ones take what is there without waiting.
  constexpr size_t kBatch = 256;
  rd_kafka_message_t* batch[kBatch];
  // The messages are written over those `out` holds, from its front; the rest is dropped at the
  // end.
  size_t appended = 0;
  Status status;
  while (status.ok() && appended < max_messages) {
    int wait_ms = 0;
    size_t want = std::min(kBatch, max_messages - appended);
    if (appended == 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      wait_ms = static_cast<int>(std::max<int64_t>(0, left.count()));
      want = 1;
    }
    const ssize_t got = rd_kafka_consume_batch_queue(rep.queue.get(), wait_ms, batch, want);
    if (got < 0) {
      status =
          Status::IOError(rep.Describe("cannot read the consumer's queue", rd_kafka_last_error()));
      break;
    }
    if (got == 0) {
      if (appended > 0 || Clock::now() >= deadline) break;
      continue;
    }
    for (ssize_t i = 0; i < got; ++i) {
      std::unique_ptr<rd_kafka_message_t, MessageDeleter> message(batch[i]);
      // After an error, the rest of the batch is only released.
      if (!status.ok()) continue;
      if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        status = rep.ConsumerError(*message);
        continue;
      }
      const char* topic = rd_kafka_topic_name(message->rkt);
      auto split = rep.last_split;
      if (split == rep.splits.end() || split->second.partition != message->partition ||
          split->second.topic != topic) {
        split = rep.splits.find(SplitName(topic, message->partition));
        rep.last_split = split;
      }
      // A message of an assignment replaced by AssignAll, already handed out.
      if (split == rep.splits.end() || message->offset < split->second.next) continue;
      SourceMessage& out_message = appended < out->size() ? (*out)[appended] : out->emplace_back();
      out_message.split.assign(split->first);
      out_message.offset = message->offset;
      AssignBytes(message->key, message->key_len, &out_message.key);
      AssignBytes(message->payload, message->len, &out_message.value);
      out_message.topic.assign(split->second.topic);
      out_message.partition = message->partition;
      rd_kafka_timestamp_type_t type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
      out_message.timestamp_ms = rd_kafka_message_timestamp(message.get(), &type);
      out_message.timestamp_type.assign(TimestampTypeName(type));
      // What a Kafka message never carries, as a new message has it.
      out_message.records.clear();
      out_message.commit_point = true;
      out_message.fact_database.clear();
      out_message.fact_table.clear();
      split->second.next = message->offset + 1;
      ++appended;
    }
    // Only errors came: as rd_kafka_consumer_poll's loop, waiting on until the deadline.
    if (status.ok() && appended == 0 && Clock::now() >= deadline) break;
  }
  out->resize(appended);
  return status;
}

std::vector<SplitLag> KafkaSource::Lag() {
  Rep& rep = *rep_;
  std::vector<SplitLag> lags;
  if (rep.consumer == nullptr) return lags;
  for (const auto& [name, split] : rep.splits) {
    SplitLag& lag = lags.emplace_back();
    lag.split = name;
    lag.next_offset = split.next;
    int64_t low = -1;
    int64_t high = -1;
    // The high watermark of the last fetch response; asked for when there was none yet, briefly:
    // a progress line must not wait for brokers that are away.
    rd_kafka_resp_err_t err = rd_kafka_get_watermark_offsets(
        rep.consumer.get(), split.topic.c_str(), split.partition, &low, &high);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR || high < 0) {
      constexpr int kLagQueryMs = 1000;
      auto marks = rep.Watermarks(split, std::min(kLagQueryMs, rep.TimeoutMs()));
      high = marks.ok() ? marks->second : -1;
    }
    lag.end_offset = high;
  }
  return lags;
}

std::string KafkaSource::Describe() const { return rep_->Where(); }

Status KafkaSource::CommitGroupOffsets(const SourceOffsets& offsets) {
  Rep& rep = *rep_;
  if (rep.consumer == nullptr) {
    return Status::InvalidArgument(rep.Where() + ": CommitGroupOffsets before Open");
  }
  if (rep.options.group_id.empty()) return Status::OK();
  PartitionList list(rd_kafka_topic_partition_list_new(static_cast<int>(offsets.next.size())));
  for (const auto& [name, next] : offsets.next) {
    auto split = rep.splits.find(name);
    if (split == rep.splits.end()) continue;
    rd_kafka_topic_partition_list_add(list.get(), split->second.topic.c_str(),
                                      split->second.partition)
        ->offset = next;
  }
  if (list->cnt == 0) return Status::OK();
  rd_kafka_resp_err_t err = rd_kafka_commit(rep.consumer.get(), list.get(), /*async=*/0);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status::IOError(
        rep.Describe("cannot commit to consumer group '" + rep.options.group_id + "'", err));
  }
  for (int i = 0; i < list->cnt; ++i) {
    if (list->elems[i].err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Status::IOError(rep.Describe(
          "cannot commit " + SplitName(list->elems[i].topic, list->elems[i].partition) +
              " to consumer group '" + rep.options.group_id + "'",
          list->elems[i].err));
    }
  }
  return Status::OK();
}

std::vector<std::string> KafkaSource::splits() const {
  std::vector<std::string> names;
  for (const auto& [name, split] : rep_->splits) names.push_back(name);
  return names;
}

const std::vector<std::string>& KafkaSource::warnings() const { return rep_->warnings; }

}  // namespace sluice
