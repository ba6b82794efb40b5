// The stencil kernel of the Rodinia-style program; only ever #included by main.cu.
texture<float, 1, cudaReadModeElementType> power_tex;

__global__ void calculate_temp(const float* temp_src, float* temp_dst, int rows, int cols,
                               float step) {
  const int col = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  const int row = blockIdx.y * BLOCK_SIZE + threadIdx.y;
  if (row >= rows || col >= cols) return;
  const int north = max(row - 1, 0);
  const int south = min(row + 1, rows - 1);
  const int west = max(col - 1, 0);
  const int east = min(col + 1, cols - 1);
  const float center = temp_src[IDX(row, col, cols)];
  const float power = tex1Dfetch(power_tex, IDX(row, col, cols));
  temp_dst[IDX(row, col, cols)] =
      center + step * (power + temp_src[IDX(north, col, cols)] + temp_src[IDX(south, col, cols)] +
                       temp_src[IDX(row, west, cols)] + temp_src[IDX(row, east, cols)] -
                       4.0f * center);
}
