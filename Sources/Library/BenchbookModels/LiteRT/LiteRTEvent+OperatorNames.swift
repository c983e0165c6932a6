extension LiteRTEvent {
    /// The name of an operator XNNPACK ran, as a reader can use it. The tag of a delegate
    /// operator's event is XNNPACK's own name for the operator (the TFLite XNNPACK delegate
    /// passes on `xnn_get_runtime_profiling_info`'s operator names, "Convolution (NHWC, F32)
    /// IGEMM", "Add (ND)"), kept as it is, with one exception:
    ///
    /// - "Invalid Unary Op": XNNPACK's subgraph optimiser (since May 2025) fuses a chain of
    ///   elementwise operators on 8-bit values whose other operands are constants into one
    ///   256-entry lookup table (in the course's int8 EfficientNet-Lite0 file, the MUL and ADD
    ///   that normalise the input). The fused node is a unary elementwise operator whose unary
    ///   operator is left unset (`xnn_unary_invalid`, from `xnn_define_unary_elementwise_lut_in_place`),
    ///   and XNNPACK's `xnn_operator_type_to_string_v2` names a unary elementwise operator by that
    ///   field, so the profiler reports a working operator as "Invalid Unary Op". It is shown
    ///   as what it runs: "8-bit lookup table (fused elementwise operators)". The event's
    ///   metadata is XNNPACK's operator index, not the TFLite node's, so it cannot say which
    ///   of the model's operators were fused.
    static func xnnpackOperatorName(_ tag: String) -> String {
        tag == "Invalid Unary Op" ? fusedLookupTable : tag
    }

    /// The name shown for XNNPACK's lookup-table operator of fused 8-bit elementwise operators.
    static let fusedLookupTable = "8-bit lookup table (fused elementwise operators)"
}
