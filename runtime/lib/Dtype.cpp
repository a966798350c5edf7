//===- Dtype.cpp - element types ------------------------------------------===//

#include "Dtype.h"

#include <stdio.h>
#include <string.h>

namespace {
struct DtypeEntry {
  mlc_dtype dtype;
  const char *name;
  size_t size;
};
const DtypeEntry kDtypes[] = {
    {MLC_F32, "f32", 4},   {MLC_F64, "f64", 8}, {MLC_F16, "f16", 2},
    {MLC_I8, "i8", 1},     {MLC_I16, "i16", 2}, {MLC_I32, "i32", 4},
    {MLC_I64, "i64", 8},   {MLC_U8, "u8", 1},   {MLC_BOOL, "bool", 1},
    {MLC_BF16, "bf16", 2}, {MLC_U16, "u16", 2}, {MLC_U32, "u32", 4},
    {MLC_U64, "u64", 8}};

const DtypeEntry *lookupDtype(mlc_dtype dtype) {
  for (const DtypeEntry &e : kDtypes)
    if (e.dtype == dtype)
      return &e;
  return nullptr;
}
} // namespace

void mlc::rt::formatDtype(char *buf, size_t size, int dtype) {
  for (const DtypeEntry &e : kDtypes) {
    if (int(e.dtype) == dtype) {
      snprintf(buf, size, "%s", e.name);
      return;
    }
  }
  snprintf(buf, size, "invalid (%d)", dtype);
}

const char *mlc_dtype_name(mlc_dtype dtype) {
  const DtypeEntry *e = lookupDtype(dtype);
  return e ? e->name : "invalid";
}

size_t mlc_dtype_size(mlc_dtype dtype) {
  const DtypeEntry *e = lookupDtype(dtype);
  return e ? e->size : 0;
}

mlc_dtype mlc_dtype_from_name(const char *name) {
  if (name)
    for (const DtypeEntry &e : kDtypes)
      if (strcmp(e.name, name) == 0)
        return e.dtype;
  return MLC_DTYPE_INVALID;
}
