// Block concatenation (paper Sec. 3.4 and 5, Fig. 8). Block k's compacted elements go to output
// positions [first, first + count), first = the exclusive prefix of the blocks' kept counts. Since
// a block is no wider than a row, that range crosses at most one row end, so it is drawn as at most
// two horizontal line segments: 4 vertices per block (segment 0 start/end, segment 1 start/end).
// A line from (x0, y + 0.5) to (x1, y + 0.5) covers exactly pixels x0 .. x1 - 1 (tested on every
// renderer we support). An empty segment is moved outside the viewport, where it is clipped away.
uniform usampler2D u_blockCounts;       // kept count per block, one texel per block
uniform usampler2D u_blockKeptPrefix;   // inclusive scan of u_blockCounts, same layout
uniform int u_countsWidthLog2;
uniform int u_outputWidthLog2;

struct LineVertex {
  vec2 position;      // in output pixels
  uvec2 block;        // (first output index of the block, block number): flat per line
};

LineVertex blockLineVertex(int vertexId) {
  uint block = uint(vertexId) >> 2;
  bool secondSegment = (vertexId & 2) != 0;
  bool segmentEnd = (vertexId & 1) != 0;

  ivec2 countTexel = texelOf(block, uint(u_countsWidthLog2));
  uint count = texelFetch(u_blockCounts, countTexel, 0).r;
  uint first = texelFetch(u_blockKeptPrefix, countTexel, 0).r - count;

  uint rowWidth = 1u << uint(u_outputWidthLog2);
  uint row = first >> uint(u_outputWidthLog2);
  uint startX = first & (rowWidth - 1u);
  uint firstLength = min(count, rowWidth - startX);
  uint length = secondSegment ? count - firstLength : firstLength;
  if (secondSegment) { startX = 0u; row += 1u; }

  vec2 position = length == 0u
      ? vec2(-16.0, -16.0)
      : vec2(float(segmentEnd ? startX + length : startX), float(row) + 0.5);
  return LineVertex(position, uvec2(first, block));
}
