-- The statements behind the binlog fixtures (make_binlog_fixtures.sh runs them on a fresh
-- MariaDB 10.11): every MySQL type of the mapping, with NULLs and the extremes of each.
SET SESSION sql_mode = '';
SET SESSION time_zone = '+00:00';
CREATE DATABASE bl;
USE bl;
CREATE TABLE t_int (
  id INT PRIMARY KEY, ti TINYINT, tiu TINYINT UNSIGNED, si SMALLINT, siu SMALLINT UNSIGNED,
  mi MEDIUMINT, miu MEDIUMINT UNSIGNED, i INT, iu INT UNSIGNED, bi BIGINT, biu BIGINT UNSIGNED,
  b1 TINYINT(1), bit1 BIT(1), bit12 BIT(12), y YEAR);
CREATE TABLE t_num (
  id INT PRIMARY KEY, d DECIMAL(10,2), dl DECIMAL(65,30), du DECIMAL(10,4) UNSIGNED, f FLOAT,
  dbl DOUBLE);
CREATE TABLE t_time (
  id INT PRIMARY KEY, dt DATE, dt0 DATETIME, dt3 DATETIME(3), dt6 DATETIME(6),
  ts TIMESTAMP(6) NULL, tm TIME(3), tm0 TIME);
CREATE TABLE t_str (
  id INT PRIMARY KEY, c CHAR(10), cl CHAR(10) CHARACTER SET latin1, vc VARCHAR(300),
  vcl VARCHAR(20) CHARACTER SET latin1, tt TINYTEXT, tx TEXT, mt MEDIUMTEXT, lt LONGTEXT,
  bn BINARY(4), vb VARBINARY(20), tb TINYBLOB, bl BLOB, mb MEDIUMBLOB, lb LONGBLOB,
  e ENUM('a','b','c'), s SET('x','y','z'), el ENUM('é','ß') CHARACTER SET latin1, j JSON,
  c255 CHAR(255));
-- The optional metadata lists cover some columns only (MariaDB's unsigned flags: the numeric
-- ones and YEAR, not BIT; its charsets: the character ones and GEOMETRY, not ENUM and SET):
-- here each list's columns come after columns it skips or counts. The primary key is not in
-- column order.
CREATE TABLE t_mix (
  y YEAR, b BIT(3), u INT UNSIGNED, e ENUM('p','q'), v VARCHAR(5) CHARACTER SET latin1,
  s SET('m','n') CHARACTER SET latin1, t TEXT CHARACTER SET latin1, PRIMARY KEY (u, y));
CREATE TABLE t_geo (id INT PRIMARY KEY, g POINT, v VARCHAR(5) CHARACTER SET latin1);

INSERT INTO t_mix VALUES (2000, b'101', 4294967295, 'q', 'é', 'm,n', 'ñ');
INSERT INTO t_geo VALUES (1, POINT(1, 2), 'ä');
INSERT INTO t_int VALUES
  (1, -128, 0, -32768, 0, -8388608, 0, -2147483648, 0, -9223372036854775808, 0, 0, b'0',
   b'000000000000', 1901),
  (2, 127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295, 9223372036854775807,
   18446744073709551615, 1, b'1', b'101010101010', 2155),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (4, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, 127, b'1', b'000000000001', 0);
INSERT INTO t_num VALUES
  (1, 12345678.91, -12345678901234567890123456789012345.123456789012345678901234567890,
   123456.7890, 3.14, -2.718281828459045),
  (2, -0.01, 0.000000000000000000000000000001, 0.0001, -3.4028235e38, 1.7976931348623157e308),
  (3, NULL, NULL, NULL, NULL, NULL),
  (4, 0, 0, 0, 0, 0),
  (5, -99999999.99, 99999999999999999999999999999999999.999999999999999999999999999999,
   999999.9999, 1e-30, -4.9e-324);
INSERT INTO t_time VALUES
  (1, '1000-01-01', '1000-01-01 00:00:00', '1000-01-01 00:00:00.000',
   '1000-01-01 00:00:00.000000', '1970-01-01 00:00:01.000000', '-838:59:59.000', '-00:00:01'),
  (2, '9999-12-31', '9999-12-31 23:59:59', '9999-12-31 23:59:59.999',
   '9999-12-31 23:59:59.999999', '2038-01-19 03:14:07.999999', '838:59:59.000', '12:34:56'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (4, '0000-00-00', '0000-00-00 00:00:00', '0000-00-00 00:00:00', '0000-00-00 00:00:00',
   '0000-00-00 00:00:00', '-00:00:00.500', '00:00:00'),
  (5, '2024-02-29', '2024-02-29 12:34:56', '2024-02-29 12:34:56.789',
   '2024-02-29 12:34:56.000001', '2024-03-31 01:30:00.5', '-01:02:03.040', '-12:00:00');
INSERT INTO t_str VALUES
  (1, 'abc', 'café', 'héllo 😀', 'Größe €', 'tiny', 'text 😀', 'medium', 'long', 'ab',
   x'00FF10', x'', x'DEADBEEF', x'0102', x'FF', 'b', 'x,z', 'ß', '{"a": [1, 2.5, "x"], "b": null}',
   REPEAT('é', 255)),
  (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
   NULL, NULL, NULL, NULL),
  (3, '', '', REPEAT('x', 300), '', '', '', '', '', '', '', '', '', '', '', '', '', '', '[]', ''),
  (4, ' pad ', 'ÿ', '"quote" \\ back', '', '', '', '', '', x'00000000', x'00', '', '', '', '',
   'c', 'x,y,z', 'é', '"s"', 'z');

UPDATE t_int SET ti = 5, biu = 18446744073709551614 WHERE id = 1;
UPDATE t_str SET vc = 'new 😀', e = 'a', s = 'y' WHERE id = 1;
DELETE FROM t_time WHERE id = 3;
DELETE FROM t_str WHERE id = 2;
ALTER TABLE t_num ADD COLUMN extra VARCHAR(10) DEFAULT 'dflt';
INSERT INTO t_num (id, d) VALUES (6, 1.5);
