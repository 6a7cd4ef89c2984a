package org.sluice.interop;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeChecks;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.MultisetType;
import org.apache.paimon.types.RowType;

/**
 * Paimon's internal values to and from the JSON encoding of `sluice read --format jsonl`
 * (include/sluice/value_json.h): numbers as numbers, DECIMAL as a string with exactly scale
 * fraction digits, DATE "YYYY-MM-DD", TIME and TIMESTAMP (and LTZ, as the UTC instant) with
 * precision fraction digits, binary as {"base64": ...}, ARRAY as an array, MAP and MULTISET as
 * [key, value] pairs, ROW as an object keyed by field name.
 */
final class ValueJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final DateTimeFormatter DATE_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final DateTimeFormatter DATE_TIME_PARSE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSSSSSSSS][.SSSSSS][.SSS]");

  private ValueJson() {}

  static JsonNode toJson(Object value, DataType type) {
    if (value == null) return NODES.nullNode();
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        return NODES.booleanNode((Boolean) value);
      case TINYINT:
        return NODES.numberNode((Byte) value);
      case SMALLINT:
        return NODES.numberNode((Short) value);
      case INTEGER:
        return NODES.numberNode((Integer) value);
      case BIGINT:
        return NODES.numberNode((Long) value);
      case FLOAT:
        return floating((Float) value, true);
      case DOUBLE:
        return floating((Double) value, false);
      case DECIMAL:
        return NODES.textNode(
            ((Decimal) value).toBigDecimal().setScale(DataTypeChecks.getScale(type)).toPlainString());
      case CHAR:
      case VARCHAR:
        return NODES.textNode(value.toString());
      case BINARY:
      case VARBINARY:
        {
          ObjectNode node = NODES.objectNode();
          node.put("base64", Base64.getEncoder().encodeToString((byte[]) value));
          return node;
        }
      case DATE:
        return NODES.textNode(LocalDate.ofEpochDay((Integer) value).toString());
      case TIME_WITHOUT_TIME_ZONE:
        {
          int millis = (Integer) value;
          int secs = millis / 1000;
          String text =
              String.format("%02d:%02d:%02d", secs / 3600, (secs / 60) % 60, secs % 60);
          return NODES.textNode(
              text + fraction((millis % 1000) * 1_000_000L, DataTypeChecks.getPrecision(type)));
        }
      case TIMESTAMP_WITHOUT_TIME_ZONE:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        {
          LocalDateTime time = ((Timestamp) value).toLocalDateTime();
          return NODES.textNode(
              DATE_TIME.format(time) + fraction(time.getNano(), DataTypeChecks.getPrecision(type)));
        }
      case ARRAY:
        {
          DataType element = ((ArrayType) type).getElementType();
          InternalArray array = (InternalArray) value;
          InternalArray.ElementGetter getter = InternalArray.createElementGetter(element);
          ArrayNode node = NODES.arrayNode();
          for (int i = 0; i < array.size(); i++) {
            node.add(toJson(getter.getElementOrNull(array, i), element));
          }
          return node;
        }
      case MAP:
      case MULTISET:
        {
          DataType keyType;
          DataType valueType;
          if (type instanceof MapType) {
            keyType = ((MapType) type).getKeyType();
            valueType = ((MapType) type).getValueType();
          } else {
            keyType = ((MultisetType) type).getElementType();
            valueType = new org.apache.paimon.types.IntType(false);
          }
          InternalMap map = (InternalMap) value;
          InternalArray keys = map.keyArray();
          InternalArray values = map.valueArray();
          InternalArray.ElementGetter keyGetter = InternalArray.createElementGetter(keyType);
          InternalArray.ElementGetter valueGetter = InternalArray.createElementGetter(valueType);
          ArrayNode node = NODES.arrayNode();
          for (int i = 0; i < map.size(); i++) {
            ArrayNode pair = NODES.arrayNode();
            pair.add(toJson(keyGetter.getElementOrNull(keys, i), keyType));
            pair.add(toJson(valueGetter.getElementOrNull(values, i), valueType));
            node.add(pair);
          }
          return node;
        }
      case ROW:
        {
          RowType rowType = (RowType) type;
          InternalRow row = (InternalRow) value;
          ObjectNode node = NODES.objectNode();
          for (int i = 0; i < rowType.getFieldCount(); i++) {
            DataField field = rowType.getFields().get(i);
            Object fieldValue = InternalRow.createFieldGetter(field.type(), i).getFieldOrNull(row);
            node.set(field.name(), toJson(fieldValue, field.type()));
          }
          return node;
        }
      default:
        throw new IllegalArgumentException("no JSON encoding for type " + type);
    }
  }

  private static JsonNode floating(double value, boolean isFloat) {
    if (Double.isNaN(value)) return NODES.textNode("NaN");
    if (Double.isInfinite(value)) return NODES.textNode(value > 0 ? "Infinity" : "-Infinity");
    return isFloat ? NODES.numberNode((float) value) : NODES.numberNode(value);
  }

  private static String fraction(long nanos, int precision) {
    if (precision <= 0) return "";
    String digits = String.format("%09d", nanos);
    return "." + digits.substring(0, Math.min(precision, 9));
  }

  static Object fromJson(JsonNode node, DataType type) {
    if (node == null || node.isNull()) return null;
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        return node.asBoolean();
      case TINYINT:
        return (byte) node.asInt();
      case SMALLINT:
        return (short) node.asInt();
      case INTEGER:
        return node.asInt();
      case BIGINT:
        return node.asLong();
      case FLOAT:
        return node.isTextual() ? Float.parseFloat(node.asText()) : (float) node.asDouble();
      case DOUBLE:
        return node.isTextual() ? Double.parseDouble(node.asText()) : node.asDouble();
      case DECIMAL:
        {
          DecimalType decimal = (DecimalType) type;
          return Decimal.fromBigDecimal(
              new BigDecimal(node.asText()), decimal.getPrecision(), decimal.getScale());
        }
      case CHAR:
      case VARCHAR:
        return BinaryString.fromString(node.asText());
      case BINARY:
      case VARBINARY:
        return Base64.getDecoder().decode(node.get("base64").asText());
      case DATE:
        return (int) LocalDate.parse(node.asText()).toEpochDay();
      case TIME_WITHOUT_TIME_ZONE:
        return (int) (java.time.LocalTime.parse(node.asText()).toNanoOfDay() / 1_000_000L);
      case TIMESTAMP_WITHOUT_TIME_ZONE:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return Timestamp.fromLocalDateTime(LocalDateTime.parse(node.asText(), DATE_TIME_PARSE));
      case ARRAY:
        {
          DataType element = ((ArrayType) type).getElementType();
          List<Object> items = new ArrayList<>();
          for (JsonNode item : node) items.add(fromJson(item, element));
          return new GenericArray(items.toArray());
        }
      case MAP:
      case MULTISET:
        {
          DataType keyType;
          DataType valueType;
          if (type instanceof MapType) {
            keyType = ((MapType) type).getKeyType();
            valueType = ((MapType) type).getValueType();
          } else {
            keyType = ((MultisetType) type).getElementType();
            valueType = new org.apache.paimon.types.IntType(false);
          }
          Map<Object, Object> map = new LinkedHashMap<>();
          for (JsonNode pair : node) {
            map.put(fromJson(pair.get(0), keyType), fromJson(pair.get(1), valueType));
          }
          return new GenericMap(map);
        }
      case ROW:
        {
          RowType rowType = (RowType) type;
          GenericRow row = new GenericRow(rowType.getFieldCount());
          for (int i = 0; i < rowType.getFieldCount(); i++) {
            DataField field = rowType.getFields().get(i);
            row.setField(i, fromJson(node.get(field.name()), field.type()));
          }
          return row;
        }
      default:
        throw new IllegalArgumentException("no JSON decoding for type " + type);
    }
  }
}
