#include "sluice/base/metric_registry_impl.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "sluice/base/process_metrics.h"

namespace sluice {
namespace {

TEST(MetricRegistryTest, RendersExactText) {
  MetricRegistryImpl registry;
  registry.SetConstantLabel("job", "ingest");
  MetricGroup table = registry.Group({{"database", "db"}, {"table", "t"}});
  table.counter("paimon_commit_commits_total", "Snapshots made.")->Inc(3);
  table.gauge("paimon_commit_lastCommitDuration", "Last commit, ms.")->Set(12);
  Histogram* duration = table.histogram("paimon_commit_commitDuration", "Commit time, ms.", 4);
  for (double v : {10, 20, 30, 40, 50}) duration->Update(v);  // the window keeps 20..50
  registry.Group({{"database", "db"}, {"table", "a"}})
      .gauge("paimon_commit_lastCommitDuration", "Last commit, ms.")
      ->Set(0.25);

  EXPECT_EQ(registry.PrometheusText(),
            "# HELP paimon_commit_commitDuration Commit time, ms.\n"
            "# TYPE paimon_commit_commitDuration summary\n"
            "paimon_commit_commitDuration{job=\"ingest\",database=\"db\",table=\"t\","
            "quantile=\"0.5\"} 35\n"
            "paimon_commit_commitDuration{job=\"ingest\",database=\"db\",table=\"t\","
            "quantile=\"0.75\"} 42.5\n"
            "paimon_commit_commitDuration{job=\"ingest\",database=\"db\",table=\"t\","
            "quantile=\"0.95\"} 48.5\n"
            "paimon_commit_commitDuration{job=\"ingest\",database=\"db\",table=\"t\","
            "quantile=\"0.99\"} 49.699999999999996\n"
            "paimon_commit_commitDuration{job=\"ingest\",database=\"db\",table=\"t\","
            "quantile=\"1\"} 50\n"
            "paimon_commit_commitDuration_sum{job=\"ingest\",database=\"db\",table=\"t\"} 150\n"
            "paimon_commit_commitDuration_count{job=\"ingest\",database=\"db\",table=\"t\"} 5\n"
            "# HELP paimon_commit_commits_total Snapshots made.\n"
            "# TYPE paimon_commit_commits_total counter\n"
            "paimon_commit_commits_total{job=\"ingest\",database=\"db\",table=\"t\"} 3\n"
            "# HELP paimon_commit_lastCommitDuration Last commit, ms.\n"
            "# TYPE paimon_commit_lastCommitDuration gauge\n"
            "paimon_commit_lastCommitDuration{job=\"ingest\",database=\"db\",table=\"a\"} 0.25\n"
            "paimon_commit_lastCommitDuration{job=\"ingest\",database=\"db\",table=\"t\"} 12\n");
}

TEST(MetricRegistryTest, SeveralRegistriesRenderEachNameOnce) {
  MetricRegistryImpl process;
  process.Group().gauge("up", "Up.")->Set(1);
  MetricRegistryImpl a;
  a.SetConstantLabel("job", "a");
  a.Group({{"table", "t"}}).counter("c_total", "C.")->Inc(2);
  MetricRegistryImpl b;
  b.SetConstantLabel("job", "b");
  b.Group({{"table", "t"}}).counter("c_total", "C.")->Inc(5);
  b.Group().gauge("up", "Up.")->Set(0);
  EXPECT_EQ(MetricRegistryImpl::PrometheusText({&process, &b, &a}),
            "# HELP c_total C.\n"
            "# TYPE c_total counter\n"
            "c_total{job=\"a\",table=\"t\"} 2\n"
            "c_total{job=\"b\",table=\"t\"} 5\n"
            "# HELP up Up.\n"
            "# TYPE up gauge\n"
            "up 1\n"
            "up{job=\"b\"} 0\n");
}

TEST(MetricRegistryTest, EmptyHistogramAndNoLabels) {
  MetricRegistryImpl registry;
  registry.Group().histogram("h", "h", 100);
  EXPECT_EQ(registry.PrometheusText(),
            "# HELP h h\n# TYPE h summary\n"
            "h{quantile=\"0.5\"} NaN\nh{quantile=\"0.75\"} NaN\nh{quantile=\"0.95\"} NaN\n"
            "h{quantile=\"0.99\"} NaN\nh{quantile=\"1\"} NaN\nh_sum 0\nh_count 0\n");
}

TEST(MetricRegistryTest, EscapesLabelValuesAndHelp) {
  MetricRegistryImpl registry;
  registry.Group({{"table", "a\"b\\c\nd"}}).gauge("g", "line\none \\ \"q\"")->Set(1);
  EXPECT_EQ(registry.PrometheusText(),
            "# HELP g line\\none \\\\ \"q\"\n"
            "# TYPE g gauge\n"
            "g{table=\"a\\\"b\\\\c\\nd\"} 1\n");
}

TEST(MetricRegistryTest, CallbacksSumAndGoWithTheirHandles) {
  MetricRegistryImpl registry;
  MetricGroup group = registry.Group({{"table", "t"}});
  MetricCallback first = group.Callback("used", "u", MetricType::kGauge, [] { return 5.0; });
  MetricCallback second;
  second = group.Callback("used", "u", MetricType::kGauge, [] { return 7.0; });
  EXPECT_EQ(registry.PrometheusText(), "# HELP used u\n# TYPE used gauge\nused{table=\"t\"} 12\n");
  second.Reset();
  EXPECT_EQ(registry.PrometheusText(), "# HELP used u\n# TYPE used gauge\nused{table=\"t\"} 5\n");
  first = MetricCallback();
  EXPECT_EQ(registry.PrometheusText(), "");
}

TEST(MetricRegistryTest, SameNameAndLabelsIsOneInstrument) {
  MetricRegistryImpl registry;
  Counter* a = registry.Group({{"table", "t"}}).counter("c", "c");
  Counter* b = registry.Group({{"table", "t"}}).counter("c", "c");
  EXPECT_EQ(a, b);
  EXPECT_NE(a, registry.Group({{"table", "u"}}).counter("c", "c"));
}

TEST(MetricRegistryTest, ConcurrentUpdatesAndRenders) {
  MetricRegistryImpl registry;
  constexpr int kThreads = 4;
  constexpr int kPerThread = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&registry, t] {
      MetricGroup group = registry.Group({{"table", "t"}});
      Counter* counter = group.counter("records_total", "r");
      Gauge* gauge = group.gauge("level", "l");
      Histogram* histogram = group.histogram("duration", "d", 100);
      for (int i = 0; i < kPerThread; ++i) {
        counter->Inc();
        gauge->Add(1);
        if (i % 100 == 0) histogram->Update(i);
        if (i % 5000 == 0) {
          // Registering under the same names from other threads, and rendering, meanwhile.
          registry.Group({{"table", "t" + std::to_string(t)}}).counter("records_total", "r");
          EXPECT_NE(registry.PrometheusText(), "");
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  MetricGroup group = registry.Group({{"table", "t"}});
  EXPECT_EQ(group.counter("records_total", "r")->value(), kThreads * kPerThread);
  EXPECT_EQ(group.gauge("level", "l")->value(), kThreads * kPerThread);
  EXPECT_EQ(group.histogram("duration", "d", 100)->Read().count, kThreads * kPerThread / 100);
}

TEST(MetricRegistryTest, SharedObjectIsMadeOnce) {
  MetricRegistryImpl registry;
  int made = 0;
  auto make = [&made] {
    ++made;
    return std::make_shared<int>(7);
  };
  auto a = registry.Shared<int>("k", make);
  auto b = registry.Shared<int>("k", make);
  EXPECT_EQ(a, b);
  EXPECT_EQ(made, 1);
}

TEST(MetricRegistryTest, ProcessMetricsReadProc) {
  MetricRegistryImpl registry;
  RegisterProcessMetrics(&registry);
  RegisterProcessMetrics(&registry);  // once
  std::string text = registry.PrometheusText();
  for (const char* name :
       {"sluice_process_resident_memory_bytes", "sluice_process_virtual_memory_bytes",
        "sluice_process_threads", "sluice_process_open_fds", "sluice_process_cpu_seconds_total",
        "sluice_process_start_time_seconds"}) {
    EXPECT_NE(text.find(std::string("# TYPE ") + name + " "), std::string::npos) << name;
  }
  // This test runs on a thread of its own at least, and gtest holds stdout open.
  size_t threads = text.find("\nsluice_process_threads ");
  ASSERT_NE(threads, std::string::npos);
  EXPECT_GE(std::stod(text.substr(threads + 24)), 1);
  size_t rss = text.find("\nsluice_process_resident_memory_bytes ");
  ASSERT_NE(rss, std::string::npos);
  EXPECT_GT(std::stod(text.substr(rss + 38)), 1 << 20);
}

}  // namespace
}  // namespace sluice
