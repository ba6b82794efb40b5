/* convert_dataset.h shim of ours for Parboil spmv (the suite's convert-dataset tool is not in the
   public repository): coo_to_jds reads a Matrix Market "coordinate real general" file (as
   studies/inputs/parboil_input.py spmv writes) into the jagged-diagonal (JDS) layout spmv_jds
   reads. Rows are sorted by their nonzero count, longest first (row_map: sorted position ->
   row); diagonal k holds the k-th nonzero of every row of the groups of warp_size sorted rows
   whose longest row has more than k, group-padded with zeros (column 0); data_row_ptr[k] is where
   diagonal k starts; nz_count[g] is group g's longest row. pad_rows, pack_size, mirrored, binary
   and debug_level are accepted and ignored (general matrices, text only). */
#ifndef MEMCARLO_STUDY_CONVERT_DATASET_SHIM_H
#define MEMCARLO_STUDY_CONVERT_DATASET_SHIM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int row, column;
  float value;
} jds_shim_entry;

static int jds_shim_by_row(const void* a, const void* b) {
  const jds_shim_entry* x = (const jds_shim_entry*)a;
  const jds_shim_entry* y = (const jds_shim_entry*)b;
  return x->row != y->row ? x->row - y->row : x->column - y->column;
}
static int* jds_shim_counts;
static int jds_shim_longest_first(const void* a, const void* b) {
  const int x = *(const int*)a, y = *(const int*)b;
  return jds_shim_counts[x] != jds_shim_counts[y] ? jds_shim_counts[y] - jds_shim_counts[x] : x - y;
}

static int coo_to_jds(char* mtx_filename, int pad_rows, int warp_size, int pack_size, int mirrored,
                      int binary, int debug_level, float** data, int** data_row_ptr,
                      int** nz_count, int** data_col_index, int** data_row_map, int* data_cols,
                      int* dim, int* len, int* nz_count_len, int* data_ptr_len) {
  (void)pad_rows, (void)pack_size, (void)mirrored, (void)binary, (void)debug_level;
  FILE* file = fopen(mtx_filename, "r");
  char line[256];
  int rows = 0, columns = 0, count = 0;
  if (!file || !fgets(line, sizeof line, file) || !strstr(line, "coordinate real general")) {
    fprintf(stderr, "%s: expected a Matrix Market 'coordinate real general' file\n", mtx_filename);
    exit(EXIT_FAILURE);
  }
  while (fgets(line, sizeof line, file) && line[0] == '%') {
  }
  if (sscanf(line, "%d %d %d", &rows, &columns, &count) != 3 || rows <= 0 || count <= 0) {
    fprintf(stderr, "%s: expected 'rows columns entries' after the header\n", mtx_filename);
    exit(EXIT_FAILURE);
  }
  jds_shim_entry* entries = (jds_shim_entry*)malloc(sizeof(jds_shim_entry) * count);
  for (int i = 0; i < count; ++i) {
    if (fscanf(file, "%d %d %f", &entries[i].row, &entries[i].column, &entries[i].value) != 3 ||
        entries[i].row < 1 || entries[i].row > rows || entries[i].column < 1 ||
        entries[i].column > columns) {
      fprintf(stderr, "%s: entry %d: expected 'row column value' within the matrix\n",
              mtx_filename, i + 1);
      exit(EXIT_FAILURE);
    }
    --entries[i].row, --entries[i].column;
  }
  fclose(file);
  qsort(entries, count, sizeof(jds_shim_entry), jds_shim_by_row);
  int* first = (int*)calloc(rows + 1, sizeof(int)); /* first entry of each row */
  jds_shim_counts = (int*)calloc(rows, sizeof(int));
  for (int i = 0; i < count; ++i) ++jds_shim_counts[entries[i].row];
  for (int r = 0; r < rows; ++r) first[r + 1] = first[r] + jds_shim_counts[r];
  int* map = (int*)malloc(sizeof(int) * rows);
  for (int r = 0; r < rows; ++r) map[r] = r;
  qsort(map, rows, sizeof(int), jds_shim_longest_first);

  const int groups = (rows + warp_size - 1) / warp_size;
  int* longest = (int*)malloc(sizeof(int) * groups);
  for (int g = 0; g < groups; ++g) longest[g] = jds_shim_counts[map[g * warp_size]];
  const int depth = longest[0];
  int* starts = (int*)malloc(sizeof(int) * (depth + 1));
  int total = 0;
  for (int k = 0; k < depth; ++k) {
    starts[k] = total;
    for (int g = 0; g < groups && longest[g] > k; ++g) total += warp_size;
  }
  starts[depth] = total;
  float* values = (float*)calloc(total, sizeof(float));
  int* indices = (int*)calloc(total, sizeof(int));
  for (int position = 0; position < rows; ++position) {
    const int row = map[position];
    for (int k = 0; k < jds_shim_counts[row]; ++k) {
      values[starts[k] + position] = entries[first[row] + k].value;
      indices[starts[k] + position] = entries[first[row] + k].column;
    }
  }
  free(entries), free(first), free(jds_shim_counts);
  *data = values, *data_row_ptr = starts, *nz_count = longest, *data_col_index = indices;
  *data_row_map = map, *data_cols = columns, *dim = rows, *len = total;
  *nz_count_len = groups, *data_ptr_len = depth;
  return 0;
}

#endif
