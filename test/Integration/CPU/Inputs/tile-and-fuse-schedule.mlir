// Tiles the activation marked `fuse_root` over rows with scf.forall, fuses
// its producers (norm.normalize, through TilingInterface, then linalg.add)
// into the loop, and decomposes the tiled norm.normalize on its tile.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %act = transform.structured.match ops{["linalg.generic"]} attributes{fuse_root} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.fuse %act tile_sizes [4, 0] {use_forall} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %norm = transform.structured.match ops{["norm.normalize"]} in %loop : (!transform.any_op) -> !transform.any_op
    %decomposed = transform.structured.decompose_interface %norm : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
