//===- NormAttrs.td - norm dialect attributes --------------*- tablegen -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_IR_NORMATTRS_TD
#define NORM_IR_NORMATTRS_TD

include "mlir/IR/EnumAttr.td"

def Norm_ModeStandard : I32EnumAttrCase<"standard", 0>;
def Norm_ModeRms : I32EnumAttrCase<"rms", 1>;
def Norm_ModeL2 : I32EnumAttrCase<"l2", 2>;

def Norm_ModeAttr : I32EnumAttr<"NormMode",
    "statistics of a normalization: centered, root-mean-square or L2 norm",
    [Norm_ModeStandard, Norm_ModeRms, Norm_ModeL2]> {
  let cppNamespace = "::mlir::norm";
}

#endif // NORM_IR_NORMATTRS_TD
