//===- BufferizableOpInterfaceImpl.h - bufferize norm.normalize -*- C++ -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define NORM_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace norm {

/// Attaches BufferizableOpInterface to norm.normalize: one-shot
/// bufferization turns the tensor form into the memref form, writing in
/// place into its inits (output, saved and running statistics).
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);

} // namespace norm
} // namespace mlir

#endif // NORM_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
