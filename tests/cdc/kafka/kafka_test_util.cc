#include "kafka_test_util.h"

#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>

namespace sluice::test {

namespace {

constexpr int kTimeoutMs = 30000;

struct ClientDeleter {
  void operator()(rd_kafka_t* client) const { rd_kafka_destroy(client); }
};
using Client = std::unique_ptr<rd_kafka_t, ClientDeleter>;

// librdkafka logs connection trouble to stderr by default; the status says what failed.
void QuietLog(const rd_kafka_t*, int, const char*, const char*) {}

struct DeliveryCount {
  std::atomic<int> failed{0};
  std::atomic<int> first_error{RD_KAFKA_RESP_ERR_NO_ERROR};
};

void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
  if (message->err == RD_KAFKA_RESP_ERR_NO_ERROR) return;
  auto* count = static_cast<DeliveryCount*>(opaque);
  if (count->failed.fetch_add(1) == 0) count->first_error = message->err;
}

Result<Client> NewClient(rd_kafka_type_t type,
                         const std::vector<std::pair<std::string, std::string>>& settings,
                         DeliveryCount* deliveries = nullptr) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char error[512];
  std::vector<std::pair<std::string, std::string>> all = {{"bootstrap.servers", KafkaBootstrap()}};
  all.insert(all.end(), settings.begin(), settings.end());
  for (const auto& [key, value] : all) {
    if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), error, sizeof(error)) !=
        RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      return Status::InvalidArgument(std::string("kafka test client: ") + error);
    }
  }
  rd_kafka_conf_set_log_cb(conf, QuietLog);
  if (deliveries != nullptr) {
    rd_kafka_conf_set_opaque(conf, deliveries);
    rd_kafka_conf_set_dr_msg_cb(conf, OnDelivery);
  }
  rd_kafka_t* client = rd_kafka_new(type, conf, error, sizeof(error));
  if (client == nullptr) {
    rd_kafka_conf_destroy(conf);
    return Status::IOError(std::string("kafka test client: ") + error);
  }
  return Client(client);
}

Status KafkaError(const std::string& what, rd_kafka_resp_err_t err) {
  return Status::IOError("kafka " + KafkaBootstrap() + ": " + what + ": " + rd_kafka_err2str(err));
}

// Runs one admin request on `client` and returns its result event.
std::unique_ptr<rd_kafka_event_t, void (*)(rd_kafka_event_t*)> AwaitEvent(rd_kafka_queue_t* queue) {
  return {rd_kafka_queue_poll(queue, kTimeoutMs), rd_kafka_event_destroy};
}

// Whether every one of the `partitions` partitions of `topic` has a leader.
bool TopicReady(rd_kafka_t* client, const std::string& topic, int partitions) {
  rd_kafka_topic_t* handle = rd_kafka_topic_new(client, topic.c_str(), nullptr);
  const rd_kafka_metadata_t* metadata = nullptr;
  rd_kafka_resp_err_t err = rd_kafka_metadata(client, 0, handle, &metadata, 5000);
  rd_kafka_topic_destroy(handle);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return false;
  bool ready = metadata->topic_cnt == 1 && metadata->topics[0].err == RD_KAFKA_RESP_ERR_NO_ERROR &&
               metadata->topics[0].partition_cnt == partitions;
  for (int i = 0; ready && i < metadata->topics[0].partition_cnt; ++i) {
    const rd_kafka_metadata_partition_t& partition = metadata->topics[0].partitions[i];
    ready = partition.err == RD_KAFKA_RESP_ERR_NO_ERROR && partition.leader >= 0;
  }
  rd_kafka_metadata_destroy(metadata);
  return ready;
}

}  // namespace

std::string KafkaBootstrap() {
  const char* env = std::getenv("SLUICE_KAFKA_BOOTSTRAP");
  return env != nullptr && *env != '\0' ? env : "127.0.0.1:19092";
}

std::string UniqueTopicName(std::string_view hint) {
  static std::atomic<int> sequence{0};
  std::string name(hint);
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  if (info != nullptr) {
    if (!name.empty()) name += '_';
    name += std::string(info->test_suite_name()) + "." + info->name();
  }
  // A broker left running between runs keeps its topics: the time tells the runs apart.
  auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  name += "_" + std::to_string(getpid()) + "_" + std::to_string(millis) + "_" +
          std::to_string(sequence.fetch_add(1));
  for (char& c : name) {
    bool allowed = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    if (!allowed) c = '_';
  }
  // Kafka's limit is 249 characters; keep the unique tail.
  constexpr size_t kMaxLength = 200;
  if (name.size() > kMaxLength) name = name.substr(name.size() - kMaxLength);
  return name;
}

Status CreateTopic(const std::string& topic, int partitions) {
  SLUICE_ASSIGN_OR_RETURN(Client client, NewClient(RD_KAFKA_PRODUCER, {}));
  char error[512];
  rd_kafka_NewTopic_t* new_topic =
      rd_kafka_NewTopic_new(topic.c_str(), partitions, 1, error, sizeof(error));
  if (new_topic == nullptr) {
    return Status::InvalidArgument("kafka topic '" + topic + "': " + error);
  }
  rd_kafka_queue_t* queue = rd_kafka_queue_new(client.get());
  rd_kafka_CreateTopics(client.get(), &new_topic, 1, nullptr, queue);
  rd_kafka_NewTopic_destroy(new_topic);
  auto event = AwaitEvent(queue);
  rd_kafka_queue_destroy(queue);
  if (event == nullptr) return Status::IOError("kafka: creating topic '" + topic + "' timed out");
  if (rd_kafka_event_error(event.get()) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return KafkaError("cannot create topic '" + topic + "'", rd_kafka_event_error(event.get()));
  }
  size_t count = 0;
  const rd_kafka_topic_result_t** results =
      rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(event.get()), &count);
  for (size_t i = 0; i < count; ++i) {
    rd_kafka_resp_err_t err = rd_kafka_topic_result_error(results[i]);
    if (err == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
      return Status::AlreadyExists("kafka topic '" + topic + "' already exists");
    }
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return KafkaError("cannot create topic '" + topic + "'", err);
    }
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kTimeoutMs);
  while (!TopicReady(client.get(), topic, partitions)) {
    if (std::chrono::steady_clock::now() >= deadline) {
      return Status::IOError("kafka topic '" + topic + "' has no leaders " +
                             std::to_string(kTimeoutMs) + " ms after its creation");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return Status::OK();
}

Status DeleteTopic(const std::string& topic) {
  SLUICE_ASSIGN_OR_RETURN(Client client, NewClient(RD_KAFKA_PRODUCER, {}));
  rd_kafka_DeleteTopic_t* doomed = rd_kafka_DeleteTopic_new(topic.c_str());
  rd_kafka_queue_t* queue = rd_kafka_queue_new(client.get());
  rd_kafka_DeleteTopics(client.get(), &doomed, 1, nullptr, queue);
  rd_kafka_DeleteTopic_destroy(doomed);
  auto event = AwaitEvent(queue);
  rd_kafka_queue_destroy(queue);
  if (event == nullptr) return Status::IOError("kafka: deleting topic '" + topic + "' timed out");
  if (rd_kafka_event_error(event.get()) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return KafkaError("cannot delete topic '" + topic + "'", rd_kafka_event_error(event.get()));
  }
  size_t count = 0;
  const rd_kafka_topic_result_t** results =
      rd_kafka_DeleteTopics_result_topics(rd_kafka_event_DeleteTopics_result(event.get()), &count);
  for (size_t i = 0; i < count; ++i) {
    rd_kafka_resp_err_t err = rd_kafka_topic_result_error(results[i]);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR && err != RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART) {
      return KafkaError("cannot delete topic '" + topic + "'", err);
    }
  }
  return Status::OK();
}

Status Produce(const std::string& topic, const std::vector<KafkaTestMessage>& messages) {
  DeliveryCount deliveries;
  SLUICE_ASSIGN_OR_RETURN(Client client,
                          NewClient(RD_KAFKA_PRODUCER,
                                    {{"enable.idempotence", "true"},
                                     {"linger.ms", "0"},
                                     {"message.timeout.ms", std::to_string(kTimeoutMs)}},
                                    &deliveries));
  for (const KafkaTestMessage& message : messages) {
    rd_kafka_headers_t* headers = rd_kafka_headers_new(message.headers.size());
    for (const auto& [name, value] : message.headers) {
      rd_kafka_header_add(headers, name.data(), static_cast<ssize_t>(name.size()), value.data(),
                          static_cast<ssize_t>(value.size()));
    }
    // Null pointers make a null key and a tombstone; an empty string is an empty value.
    const void* key = message.key ? message.key->data() : nullptr;
    size_t key_size = message.key ? message.key->size() : 0;
    void* value = message.value ? const_cast<char*>(message.value->data()) : nullptr;
    size_t value_size = message.value ? message.value->size() : 0;
    int32_t partition = message.partition < 0 ? RD_KAFKA_PARTITION_UA : message.partition;
    rd_kafka_resp_err_t err = rd_kafka_producev(
        client.get(), RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(partition),
        RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(key, key_size),
        RD_KAFKA_V_VALUE(value, value_size), RD_KAFKA_V_TIMESTAMP(message.timestamp_ms),
        RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_END);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      rd_kafka_headers_destroy(headers);
      return KafkaError("cannot produce to topic '" + topic + "'", err);
    }
  }
  rd_kafka_resp_err_t err = rd_kafka_flush(client.get(), kTimeoutMs);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return KafkaError("producing to topic '" + topic + "' did not finish", err);
  }
  if (deliveries.failed > 0) {
    return KafkaError(std::to_string(deliveries.failed.load()) + " of " +
                          std::to_string(messages.size()) + " messages to topic '" + topic +
                          "' failed",
                      static_cast<rd_kafka_resp_err_t>(deliveries.first_error.load()));
  }
  return Status::OK();
}

KafkaTestMessage KafkaMessage(std::optional<std::string> key, std::optional<std::string> value,
                              int32_t partition, int64_t timestamp_ms) {
  KafkaTestMessage message;
  message.key = std::move(key);
  message.value = std::move(value);
  message.partition = partition;
  message.timestamp_ms = timestamp_ms;
  return message;
}

Status ProduceValues(const std::string& topic, int32_t partition, int count,
                     const std::string& prefix) {
  std::vector<KafkaTestMessage> messages;
  for (int i = 0; i < count; ++i) {
    messages.push_back(
        KafkaMessage("k" + std::to_string(i), prefix + std::to_string(i), partition));
  }
  return Produce(topic, messages);
}

Result<std::vector<int64_t>> CommittedOffsets(const std::string& topic, int partitions,
                                              const std::string& group_id) {
  SLUICE_ASSIGN_OR_RETURN(Client client, NewClient(RD_KAFKA_CONSUMER, {{"group.id", group_id}}));
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(partitions);
  for (int p = 0; p < partitions; ++p) rd_kafka_topic_partition_list_add(list, topic.c_str(), p);
  rd_kafka_resp_err_t err = rd_kafka_committed(client.get(), list, kTimeoutMs);
  std::vector<int64_t> offsets;
  for (int i = 0; i < list->cnt; ++i) {
    offsets.push_back(list->elems[i].offset >= 0 ? list->elems[i].offset : -1);
  }
  rd_kafka_topic_partition_list_destroy(list);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return KafkaError("cannot read the offsets of consumer group '" + group_id + "'", err);
  }
  return offsets;
}

}  // namespace sluice::test
