# Read by ctest (TEST_INCLUDE_FILES, after the tests gtest_discover_tests lists): the COST, in
# seconds of a Debug + ASan run on the 2-core machine, of the tests that take 15 s or more.
#
# ctest -j starts the tests of each dependency level (the fixtures' setups, then the tests
# that require a fixture, then the others) by COST, highest first. A test with a COST property
# keeps it: the times ctest measures (Testing/Temporary/CTestCostData.txt, which also averages
# the property into what it writes: hence the servers' "cost" near 1000 there) are only used
# for tests without one, and a fresh build tree (CI) has none. So every scenario test would
# have sluice_test's COST 10 and start in the order it was listed; these start first. A name
# that no longer exists is ignored; update the figures when a test's time changes much. A
# parameterized test's name ends with gtest's "# GetParam() = ..." (DbSyncKillTest's prints a
# pointer, which changes from build to build: it is not listed).
set(_sluice_test_costs
    "ServeSoakTest.WriteOnlyWritersAreKeptCompactedByTheService" 91
    "ServeKillTest.JobsResumeAndApplyEveryMessageOnceAcrossKills" 41
    "SigkillStressTest.ConcurrentWritesCompactionsExpiryReadsAndDdlKilledAtRandomPoints" 33
    "ServeDashboardTest.EveryPanelShowsWhatTheServiceDid" 33
    "ArrowInteropTest.PyarrowFilesReadInSluice" 28
    "PypaimonInteropTest.EachReadsWhatTheOtherWrites" 26
    "ArrowInteropTest.SluiceFilesReadInPyarrow" 25
    "DynamicBucketModelTest.EveryCommitReadsAsTheModelWithEachKeyInOneBucket" 21
    "FirstRun/KafkaSyncKillTest.EveryMessageAppliedOnceAcrossKills/SigtermFirst  # GetParam() = true" 20
    "CommitKindsPowerLossTest.DeletionVectorCommit" 20
    "Producers/ChangelogProducerPowerLossTest.CommitWithChangelog/full_compaction  # GetParam() = \"full-compaction\"" 18
    "Producers/ChangelogProducerPowerLossTest.CommitWithChangelog/lookup  # GetParam() = \"lookup\"" 18
    "FirstRun/KafkaSyncKillTest.EveryMessageAppliedOnceAcrossKills/KillsOnly  # GetParam() = false" 18
    "SluiceS3FaultsTest.ServerKilledMidUpload" 18
    "PowerLossTest.AtEveryFileIOCallOfAWriteAndCommit" 15)
list(LENGTH _sluice_test_costs _sluice_n)
math(EXPR _sluice_last "${_sluice_n} - 1")
foreach(_sluice_i RANGE 0 ${_sluice_last} 2)
  math(EXPR _sluice_j "${_sluice_i} + 1")
  list(GET _sluice_test_costs ${_sluice_i} _sluice_name)
  list(GET _sluice_test_costs ${_sluice_j} _sluice_cost)
  set_tests_properties("${_sluice_name}" PROPERTIES COST ${_sluice_cost})
endforeach()
