#include "sluice/lsm/compaction_metrics.h"

#include <algorithm>
#include <optional>

namespace sluice {

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kCompactionTimeWindow = 100;           // Java COMPACTION_TIME_WINDOW
constexpr auto kBusyWindow = std::chrono::seconds(60);  // Java BUSY_MEASURE_MILLIS

}  // namespace

std::shared_ptr<CompactionMetrics> CompactionMetrics::Of(const MetricGroup& table) {
  std::string key = "compaction";
  for (const auto& [k, v] : table.labels()) key += "\x1f" + k + "=" + v;
  return table.registry()->Shared<CompactionMetrics>(
      key, [&table] { return std::make_shared<CompactionMetrics>(table); });
}

CompactionMetrics::CompactionMetrics(MetricGroup table)
    : table_(std::move(table)),
      completed_(
          table_.counter("paimon_compaction_compactionCompletedCount", "Compactions completed.")),
      total_(table_.counter("paimon_compaction_compactionTotalCount", "Compactions started.")),
      queued_(table_.gauge("paimon_compaction_compactionQueuedCount",
                           "Compactions submitted and not yet started.")) {
  auto gauge = [this](const char* name, const char* help, std::function<double()> read) {
    callbacks_.push_back(table_.Callback(name, help, MetricType::kGauge, std::move(read)));
  };
  gauge("paimon_compaction_maxLevel0FileCount", "Largest level-0 file count over the buckets.",
        [this] { return Aggregate(&Reporter::level0_file_count_, true); });
  gauge("paimon_compaction_avgLevel0FileCount", "Mean level-0 file count over the buckets.",
        [this] { return Aggregate(&Reporter::level0_file_count_, false); });
  gauge("paimon_compaction_maxTotalFileSize", "Largest live file size of a bucket (bytes).",
        [this] { return Aggregate(&Reporter::total_file_size_, true); });
  gauge("paimon_compaction_avgTotalFileSize", "Mean live file size of the buckets (bytes).",
        [this] { return Aggregate(&Reporter::total_file_size_, false); });
  gauge("paimon_compaction_maxCompactionInputSize",
        "Largest input of the buckets' last compactions (bytes).",
        [this] { return Aggregate(&Reporter::compaction_input_size_, true); });
  gauge("paimon_compaction_avgCompactionInputSize",
        "Mean input of the buckets' last compactions (bytes).",
        [this] { return Aggregate(&Reporter::compaction_input_size_, false); });
  gauge("paimon_compaction_maxCompactionOutputSize",
        "Largest output of the buckets' last compactions (bytes).",
        [this] { return Aggregate(&Reporter::compaction_output_size_, true); });
  gauge("paimon_compaction_avgCompactionOutputSize",
        "Mean output of the buckets' last compactions (bytes).",
        [this] { return Aggregate(&Reporter::compaction_output_size_, false); });
  gauge("paimon_compaction_compactionThreadBusy",
        "Share of the last 60 s compactions ran, summed over compactions (percent).",
        [this] { return ThreadBusy(); });
  gauge("paimon_compaction_avgCompactionTime", "Mean time of the last 100 compactions (ms).",
        [this] { return AvgCompactionTime(); });
}

CompactionMetrics::~CompactionMetrics() { callbacks_.clear(); }

std::unique_ptr<CompactionMetrics::Reporter> CompactionMetrics::CreateReporter(int32_t bucket) {
  std::unique_ptr<Reporter> reporter(new Reporter(shared_from_this(), bucket));
  bool label = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    reporters_.insert(reporter.get());
    label = bucket >= 0 && bucket < kLabelledBuckets && labelled_buckets_.insert(bucket).second;
  }
  if (label) {
    MetricGroup group = table_.WithLabel("bucket", std::to_string(bucket));
    MetricCallback level0 = group.Callback(
        "paimon_compaction_level0FileCount", "Level-0 files of the bucket.", MetricType::kGauge,
        [this, bucket] { return Aggregate(&Reporter::level0_file_count_, true, bucket); });
    MetricCallback size = group.Callback(
        "paimon_compaction_totalFileSize", "Live file size of the bucket (bytes).",
        MetricType::kGauge,
        [this, bucket] { return Aggregate(&Reporter::total_file_size_, true, bucket); });
    std::lock_guard<std::mutex> lock(mutex_);
    callbacks_.push_back(std::move(level0));
    callbacks_.push_back(std::move(size));
  }
  return reporter;
}

void CompactionMetrics::Unregister(Reporter* reporter) {
  std::lock_guard<std::mutex> lock(mutex_);
  reporters_.erase(reporter);
}

double CompactionMetrics::Aggregate(std::atomic<int64_t> Reporter::*figure, bool max,
                                    std::optional<int32_t> bucket) const {
  std::lock_guard<std::mutex> lock(mutex_);
  int64_t count = 0;
  int64_t best = 0;
  double sum = 0;
  for (const Reporter* r : reporters_) {
    if (bucket && r->bucket_ != *bucket) continue;
    const int64_t value = (r->*figure).load();
    best = count == 0 ? value : std::max(best, value);
    sum += static_cast<double>(value);
    ++count;
  }
  if (count == 0) return -1;
  return max ? static_cast<double>(best) : sum / static_cast<double>(count);
}

double CompactionMetrics::ThreadBusy() const {
  const Clock::time_point now = Clock::now();
  const Clock::time_point from = now - kBusyWindow;
  std::lock_guard<std::mutex> lock(mutex_);
  Clock::duration busy{0};
  for (const auto& [start, end] : busy_) {
    if (end > from) busy += end - std::max(start, from);
  }
  for (const Clock::time_point& start : running_) busy += now - std::max(start, from);
  return 100.0 * std::chrono::duration<double>(busy).count() /
         std::chrono::duration<double>(kBusyWindow).count();
}

double CompactionMetrics::AvgCompactionTime() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (compaction_times_.empty()) return 0;
  double sum = 0;
  for (double t : compaction_times_) sum += t;
  return sum / static_cast<double>(compaction_times_.size());
}

CompactionMetrics::Reporter::~Reporter() { metrics_->Unregister(this); }

void CompactionMetrics::Reporter::CompactionQueued() { metrics_->queued_->Add(1); }

Clock::time_point CompactionMetrics::Reporter::CompactionStarted() {
  metrics_->queued_->Add(-1);
  metrics_->total_->Inc();
  const Clock::time_point start = Clock::now();
  std::lock_guard<std::mutex> lock(metrics_->mutex_);
  metrics_->running_.insert(start);
  return start;
}

void CompactionMetrics::Reporter::CompactionFinished(Clock::time_point start, bool ok,
                                                     int64_t input_bytes, int64_t output_bytes) {
  const Clock::time_point end = Clock::now();
  if (ok) {
    metrics_->completed_->Inc();
    compaction_input_size_.store(input_bytes);
    compaction_output_size_.store(output_bytes);
  }
  CompactionMetrics& m = *metrics_;
  std::lock_guard<std::mutex> lock(m.mutex_);
  if (auto it = m.running_.find(start); it != m.running_.end()) m.running_.erase(it);
  m.busy_.emplace_back(start, end);
  while (!m.busy_.empty() && m.busy_.front().second <= end - kBusyWindow) m.busy_.pop_front();
  if (ok) {
    m.compaction_times_.push_back(std::chrono::duration<double, std::milli>(end - start).count());
    if (m.compaction_times_.size() > kCompactionTimeWindow) m.compaction_times_.pop_front();
  }
}

}  // namespace sluice
