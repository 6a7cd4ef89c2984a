-- Run after binlog_fixture.sql with binlog_row_metadata = MINIMAL: the TABLE_MAP events carry
-- no column names and no ENUM / SET members; the last update and delete have minimal row images.
SET SESSION sql_mode = '';
SET SESSION time_zone = '+00:00';
USE bl;
INSERT INTO t_int VALUES
  (10, -7, 200, -300, 60000, -70000, 16000000, -5, 4000000000, -6, 18000000000000000000, 1,
   b'1', b'111111111111', 1999);
INSERT INTO t_num (id, d, dl, du, f, dbl) VALUES (10, -1.25, -0.5, 2.5, 0.1, 0.1);
INSERT INTO t_time VALUES
  (10, '2001-02-03', '2001-02-03 04:05:06', '2001-02-03 04:05:06.007',
   '2001-02-03 04:05:06.000008', '2001-02-03 04:05:06.123456', '100:00:00.001', '-00:59:59');
INSERT INTO t_str VALUES
  (10, 'ü', 'ü', 'ü', 'ü', 'ü', 'ü', 'ü', 'ü', x'FF', x'FE', x'FD', x'FC', x'FB', x'FA', 'c',
   'y,z', 'ß', '{}', '😀');
SET SESSION binlog_row_image = MINIMAL;
UPDATE t_int SET i = 42 WHERE id = 10;
DELETE FROM t_int WHERE id = 10;
