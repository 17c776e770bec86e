//! Gen9 (Skylake) packets and state structures used by GPGPU submission.
//! Field positions from the Gen9 PRM (as genxml's gen9.xml records them).

use super::packet;

// ------------------------------------------------------------------ MI

packet! {
    /// MI_BATCH_BUFFER_END: ends the batch.
    MiBatchBufferEnd = "MI_BATCH_BUFFER_END", dwords 1, bias 1,
    opcode [(29, 31, 0), (23, 28, 10)], length None;
    {}
}

packet! {
    /// MI_NOOP.
    MiNoop = "MI_NOOP", dwords 1, bias 1,
    opcode [(29, 31, 0), (23, 28, 0)], length None;
    {
        identification_number: u32 = 0, 21, Uint, "Identification Number";
        identification_number_register_write_enable: bool = 22, 22, Uint,
            "Identification Number Register Write Enable";
    }
}

packet! {
    /// MI_STORE_DATA_IMM: a dword store is 4 dwords (DWord Length 2); a
    /// qword store sets Store Qword and DWord Length 3 (5 dwords).
    MiStoreDataImm = "MI_STORE_DATA_IMM", dwords 5, bias 2,
    opcode [(29, 31, 0), (23, 28, 32)], length Some((0, 9, 2));
    {
        store_qword: bool = 21, 21, Uint, "Store Qword";
        use_global_gtt: bool = 22, 22, Uint, "Use Global GTT";
        core_mode_enable: bool = 32, 32, Uint, "Core Mode Enable";
        address: u64 = 34, 79, Address, "Address";
        immediate_data: u64 = 96, 159, Uint, "Immediate Data";
    }
}

packet! {
    /// MI_LOAD_REGISTER_IMM with one register (DWord Length 1).
    MiLoadRegisterImm = "MI_LOAD_REGISTER_IMM", dwords 3, bias 2,
    opcode [(29, 31, 0), (23, 28, 34)], length Some((0, 7, 1));
    {
        byte_write_disables: u8 = 8, 11, Uint, "Byte Write Disables";
        register_offset: u32 = 34, 54, Address, "Register Offset";
        data_dword: u32 = 64, 95, Uint, "Data DWord";
    }
}

/// An MI_LOAD_REGISTER_IMM's (register offset, value) pairs; `dw` is the whole command
/// (header first). The offset keeps its bits [22:2], as the command streamer reads them.
pub fn lri_pairs(dw: &[u32]) -> impl Iterator<Item = (u32, u32)> + '_ {
    dw.get(1..)
        .unwrap_or_default()
        .chunks_exact(2)
        .map(|p| (p[0] & 0x007f_fffc, p[1]))
}

/// MI_BATCH_BUFFER_START Address Space Indicator values.
pub const ASI_GGTT: u8 = 0;
pub const ASI_PPGTT: u8 = 1;

packet! {
    /// MI_BATCH_BUFFER_START: runs a batch buffer. From the ring it starts a first-level
    /// batch; inside a batch it chains (jumps) or, with Second Level Batch Buffer set,
    /// calls a second-level batch that returns at its MI_BATCH_BUFFER_END.
    MiBatchBufferStart = "MI_BATCH_BUFFER_START", dwords 3, bias 2,
    opcode [(29, 31, 0), (23, 28, 49)], length Some((0, 7, 1));
    {
        address_space_indicator: u8 = 8, 8, Uint, "Address Space Indicator";
        resource_streamer_enable: bool = 10, 10, Uint, "Resource Streamer Enable";
        predication_enable: bool = 15, 15, Uint, "Predication Enable";
        add_offset_enable: bool = 16, 16, Uint, "Add Offset Enable";
        second_level_batch_buffer: u8 = 22, 22, Uint, "Second Level Batch Buffer";
        batch_buffer_start_address: u64 = 34, 95, Address, "Batch Buffer Start Address";
    }
}

packet! {
    /// MI_ARB_CHECK: a point where the command streamer may be preempted.
    MiArbCheck = "MI_ARB_CHECK", dwords 1, bias 1,
    opcode [(29, 31, 0), (23, 28, 5)], length None;
    {}
}

packet! {
    /// MI_STORE_REGISTER_MEM: stores an MMIO register's dword to memory.
    MiStoreRegisterMem = "MI_STORE_REGISTER_MEM", dwords 4, bias 2,
    opcode [(29, 31, 0), (23, 28, 36)], length Some((0, 7, 2));
    {
        predicate_enable: bool = 21, 21, Uint, "Predicate Enable";
        use_global_gtt: bool = 22, 22, Uint, "Use Global GTT";
        register_address: u32 = 34, 54, Address, "Register Address";
        memory_address: u64 = 66, 127, Address, "Memory Address";
    }
}

/// The render engine's TIMESTAMP register (low and high dwords).
pub const REG_TIMESTAMP: u32 = 0x2358;
pub const REG_TIMESTAMP_UDW: u32 = 0x235c;
/// The render context's own timestamp, counting while the context runs (NEO stores it
/// next to PIPE_CONTROL timestamps for profiling).
pub const REG_CTX_TIMESTAMP: u32 = 0x23a8;
/// DEBUG_CONTROL_REG2 (NEO's name): the EUs' thread arbitration policy; 0x100 is
/// round-robin, NEO's default on Gen9 (0 is age-based).
pub const REG_DEBUG_CONTROL2: u32 = 0xe404;
pub const THREAD_ARBITRATION_ROUND_ROBIN: u32 = 0x100;
/// MOCS index 2 of i915's Skylake table (intel_mocs.c, I915_MOCS_CACHED: L3 write-back,
/// LLC/eLLC write-back), in a MOCS field's bits [6:1]; index 0 is uncached.
pub const MOCS_CACHED: u8 = 2 << 1;
/// L3CNTLREG: the L3's partition between SLM, URB, read-only, DC and "all" clients.
pub const REG_L3CNTLREG: u32 = 0x7034;
/// L3CNTLREG's SLM Enable bit.
pub const L3CNTLREG_SLM_ENABLE: u32 = 1;
/// The L3 partitions NEO loads on Skylake GT2 (found in its recorded streams,
/// tests/neo/): with SLM, SLM Enable, URB 16 and "all" 48 ways; without, URB 32 and
/// "all" 64 ways (fields URB Allocation [7:1], All Allocation [31:25]).
pub const L3CNTLREG_GT2_SLM: u32 = 0x6000_0321;
pub const L3CNTLREG_GT2_NO_SLM: u32 = 0x8000_0340;

// ------------------------------------------------------------------ pipeline state

/// PIPELINE_SELECT's Pipeline Selection value for GPGPU.
pub const PIPELINE_GPGPU: u8 = 2;

packet! {
    /// PIPELINE_SELECT. On Gen9 the Mask Bits must enable the fields written.
    PipelineSelect = "PIPELINE_SELECT", dwords 1, bias 1,
    opcode [(29, 31, 3), (27, 28, 1), (24, 26, 1), (16, 23, 4)], length None;
    {
        pipeline_selection: u8 = 0, 1, Uint, "Pipeline Selection";
        media_sampler_dop_clock_gate_enable: bool = 4, 4, Uint,
            "Media Sampler DOP Clock Gate Enable";
        force_media_awake: bool = 5, 5, Uint, "Force Media Awake";
        mask_bits: u8 = 8, 15, Uint, "Mask Bits";
    }
}

packet! {
    /// STATE_BASE_ADDRESS: the bases the state pointers are relative to.
    StateBaseAddress = "STATE_BASE_ADDRESS", dwords 19, bias 2,
    opcode [(29, 31, 3), (27, 28, 0), (24, 26, 1), (16, 23, 1)], length Some((0, 7, 17));
    {
        general_state_base_address_modify_enable: bool = 32, 32, Uint,
            "General State Base Address Modify Enable";
        general_state_mocs: u8 = 36, 42, Uint, "General State MOCS";
        general_state_base_address: u64 = 44, 95, Address, "General State Base Address";
        stateless_data_port_access_mocs: u8 = 112, 118, Uint, "Stateless Data Port Access MOCS";
        surface_state_base_address_modify_enable: bool = 128, 128, Uint,
            "Surface State Base Address Modify Enable";
        surface_state_mocs: u8 = 132, 138, Uint, "Surface State MOCS";
        surface_state_base_address: u64 = 140, 191, Address, "Surface State Base Address";
        dynamic_state_base_address_modify_enable: bool = 192, 192, Uint,
            "Dynamic State Base Address Modify Enable";
        dynamic_state_mocs: u8 = 196, 202, Uint, "Dynamic State MOCS";
        dynamic_state_base_address: u64 = 204, 255, Address, "Dynamic State Base Address";
        indirect_object_base_address_modify_enable: bool = 256, 256, Uint,
            "Indirect Object Base Address Modify Enable";
        indirect_object_mocs: u8 = 260, 266, Uint, "Indirect Object MOCS";
        indirect_object_base_address: u64 = 268, 319, Address, "Indirect Object Base Address";
        instruction_base_address_modify_enable: bool = 320, 320, Uint,
            "Instruction Base Address Modify Enable";
        instruction_mocs: u8 = 324, 330, Uint, "Instruction MOCS";
        instruction_base_address: u64 = 332, 383, Address, "Instruction Base Address";
        general_state_buffer_size_modify_enable: bool = 384, 384, Uint,
            "General State Buffer Size Modify Enable";
        /// In 4 KiB pages.
        general_state_buffer_size: u32 = 396, 415, Uint, "General State Buffer Size";
        dynamic_state_buffer_size_modify_enable: bool = 416, 416, Uint,
            "Dynamic State Buffer Size Modify Enable";
        dynamic_state_buffer_size: u32 = 428, 447, Uint, "Dynamic State Buffer Size";
        indirect_object_buffer_size_modify_enable: bool = 448, 448, Uint,
            "Indirect Object Buffer Size Modify Enable";
        indirect_object_buffer_size: u32 = 460, 479, Uint, "Indirect Object Buffer Size";
        instruction_buffer_size_modify_enable: bool = 480, 480, Uint,
            "Instruction Buffer size Modify Enable";
        instruction_buffer_size: u32 = 492, 511, Uint, "Instruction Buffer Size";
        bindless_surface_state_base_address_modify_enable: bool = 512, 512, Uint,
            "Bindless Surface State Base Address Modify Enable";
        bindless_surface_state_mocs: u8 = 516, 522, Uint, "Bindless Surface State MOCS";
        bindless_surface_state_base_address: u64 = 524, 575, Address,
            "Bindless Surface State Base Address";
        bindless_surface_state_size: u32 = 588, 607, Uint, "Bindless Surface State Size";
    }
}

packet! {
    /// STATE_SIP: the system routine's address (exceptions, debugging, preemption).
    StateSip = "STATE_SIP", dwords 3, bias 2,
    opcode [(29, 31, 3), (27, 28, 0), (24, 26, 1), (16, 23, 2)], length Some((0, 7, 1));
    {
        /// Relative to Instruction Base Address.
        system_instruction_pointer: u64 = 36, 95, Address, "System Instruction Pointer";
    }
}

packet! {
    /// GPGPU_CSR_BASE_ADDRESS: where mid-thread preemption saves the EUs' state.
    GpgpuCsrBaseAddress = "GPGPU_CSR_BASE_ADDRESS", dwords 3, bias 2,
    opcode [(29, 31, 3), (27, 28, 0), (24, 26, 1), (16, 23, 4)], length Some((0, 7, 1));
    {
        gpgpu_csr_base_address: u64 = 44, 95, Address, "GPGPU CSR Base Address";
    }
}

// ------------------------------------------------------------------ media / GPGPU

packet! {
    /// MEDIA_VFE_STATE: scratch, thread and URB/CURBE allocation of the media pipe.
    MediaVfeState = "MEDIA_VFE_STATE", dwords 9, bias 2,
    opcode [(29, 31, 3), (27, 28, 2), (24, 26, 0), (16, 23, 0)], length Some((0, 15, 7));
    {
        /// Per-thread scratch: 2^(n+10) bytes (PRM: 0 = 1 KiB ... 11 = 2 MiB).
        per_thread_scratch_space: u8 = 32, 35, Uint, "Per Thread Scratch Space";
        stack_size: u8 = 36, 39, Uint, "Stack Size";
        /// Relative to General State Base Address, 1 KiB aligned.
        scratch_space_base_pointer: u64 = 42, 79, Address, "Scratch Space Base Pointer";
        reset_gateway_timer: bool = 103, 103, Uint, "Reset Gateway Timer";
        number_of_urb_entries: u8 = 104, 111, Uint, "Number of URB Entries";
        /// Maximum number of threads minus one.
        maximum_number_of_threads: u16 = 112, 127, Uint, "Maximum Number of Threads";
        slice_disable: u8 = 128, 129, Uint, "Slice Disable";
        /// In 256-bit units.
        curbe_allocation_size: u16 = 160, 175, Uint, "CURBE Allocation Size";
        urb_entry_allocation_size: u16 = 176, 191, Uint, "URB Entry Allocation Size";
        scoreboard_mask: u8 = 192, 199, Uint, "Scoreboard Mask";
        scoreboard_type: bool = 222, 222, Uint, "Scoreboard Type";
        scoreboard_enable: bool = 223, 223, Uint, "Scoreboard Enable";
    }
}

packet! {
    /// MEDIA_CURBE_LOAD: copies the CURBE from dynamic state into the URB.
    MediaCurbeLoad = "MEDIA_CURBE_LOAD", dwords 4, bias 2,
    opcode [(29, 31, 3), (27, 28, 2), (24, 26, 0), (16, 23, 1)], length Some((0, 15, 2));
    {
        /// Bytes, a multiple of 32.
        curbe_total_data_length: u32 = 64, 80, Uint, "CURBE Total Data Length";
        /// Relative to Dynamic State Base Address, 64-byte aligned.
        curbe_data_start_address: u32 = 96, 127, Uint, "CURBE Data Start Address";
    }
}

packet! {
    /// MEDIA_INTERFACE_DESCRIPTOR_LOAD: where the interface descriptors are.
    MediaInterfaceDescriptorLoad = "MEDIA_INTERFACE_DESCRIPTOR_LOAD", dwords 4, bias 2,
    opcode [(29, 31, 3), (27, 28, 2), (24, 26, 0), (16, 23, 2)], length Some((0, 15, 2));
    {
        /// Bytes, a multiple of 32.
        interface_descriptor_total_length: u32 = 64, 80, Uint,
            "Interface Descriptor Total Length";
        /// Relative to Dynamic State Base Address.
        interface_descriptor_data_start_address: u32 = 96, 127, Address,
            "Interface Descriptor Data Start Address";
    }
}

/// Shared Local Memory Size encodings (Gen9): 0 = none, n = 2^(n-1) KiB up to 64 KiB.
pub fn slm_size_bytes(encoded: u8) -> Option<u32> {
    match encoded {
        0 => Some(0),
        1..=7 => Some(1024u32 << (encoded - 1)),
        _ => None,
    }
}

packet! {
    /// INTERFACE_DESCRIPTOR_DATA: one kernel's dispatch parameters (8 dwords).
    InterfaceDescriptorData = "INTERFACE_DESCRIPTOR_DATA", dwords 8, bias 0,
    opcode [], length None;
    {
        /// Relative to Instruction Base Address, 64-byte aligned.
        kernel_start_pointer: u64 = 6, 47, Address, "Kernel Start Pointer";
        software_exception_enable: bool = 71, 71, Uint, "Software Exception Enable";
        mask_stack_exception_enable: bool = 75, 75, Uint, "Mask Stack Exception Enable";
        illegal_opcode_exception_enable: bool = 77, 77, Uint, "Illegal Opcode Exception Enable";
        floating_point_mode: u8 = 80, 80, Uint, "Floating Point Mode";
        thread_priority: u8 = 81, 81, Uint, "Thread Priority";
        single_program_flow: bool = 82, 82, Uint, "Single Program Flow";
        denorm_mode: u8 = 83, 83, Uint, "Denorm Mode";
        sampler_count: u8 = 98, 100, Uint, "Sampler Count";
        /// Relative to Dynamic State Base Address.
        sampler_state_pointer: u32 = 101, 127, Address, "Sampler State Pointer";
        binding_table_entry_count: u8 = 128, 132, Uint, "Binding Table Entry Count";
        /// Relative to Surface State Base Address, 32-byte aligned.
        binding_table_pointer: u32 = 133, 143, Address, "Binding Table Pointer";
        /// In GRFs (32 bytes).
        constant_urb_entry_read_offset: u16 = 160, 175, Uint, "Constant URB Entry Read Offset";
        /// Per-thread data, in GRFs.
        constant_urb_entry_read_length: u16 = 176, 191, Uint, "Constant URB Entry Read Length";
        number_of_threads_in_gpgpu_thread_group: u16 = 192, 201, Uint,
            "Number of Threads in GPGPU Thread Group";
        global_barrier_enable: bool = 207, 207, Uint, "Global Barrier Enable";
        shared_local_memory_size: u8 = 208, 212, Uint, "Shared Local Memory Size";
        barrier_enable: bool = 213, 213, Uint, "Barrier Enable";
        rounding_mode: u8 = 214, 215, Uint, "Rounding Mode";
        /// Cross-thread data, in GRFs.
        cross_thread_constant_data_read_length: u8 = 224, 231, Uint,
            "Cross-Thread Constant Data Read Length";
    }
}

/// GPGPU_WALKER's SIMD Size values.
pub const SIMD8: u8 = 0;
pub const SIMD16: u8 = 1;
pub const SIMD32: u8 = 2;

packet! {
    /// GPGPU_WALKER: dispatches a grid of thread groups.
    GpgpuWalker = "GPGPU_WALKER", dwords 15, bias 2,
    opcode [(29, 31, 3), (27, 28, 2), (24, 26, 1), (16, 23, 5)], length Some((0, 7, 13));
    {
        predicate_enable: bool = 8, 8, Uint, "Predicate Enable";
        indirect_parameter_enable: bool = 10, 10, Uint, "Indirect Parameter Enable";
        /// Index of the interface descriptor (32-byte units from the loaded start).
        interface_descriptor_offset: u8 = 32, 37, Uint, "Interface Descriptor Offset";
        indirect_data_length: u32 = 64, 80, Uint, "Indirect Data Length";
        indirect_data_start_address: u32 = 102, 127, Address, "Indirect Data Start Address";
        /// Threads per group minus one (X counter).
        thread_width_counter_maximum: u8 = 128, 133, Uint, "Thread Width Counter Maximum";
        thread_height_counter_maximum: u8 = 136, 141, Uint, "Thread Height Counter Maximum";
        thread_depth_counter_maximum: u8 = 144, 149, Uint, "Thread Depth Counter Maximum";
        simd_size: u8 = 158, 159, Uint, "SIMD Size";
        thread_group_id_starting_x: u32 = 160, 191, Uint, "Thread Group ID Starting X";
        /// One past the last group id in X.
        thread_group_id_x_dimension: u32 = 224, 255, Uint, "Thread Group ID X Dimension";
        thread_group_id_starting_y: u32 = 256, 287, Uint, "Thread Group ID Starting Y";
        thread_group_id_y_dimension: u32 = 320, 351, Uint, "Thread Group ID Y Dimension";
        thread_group_id_starting_resume_z: u32 = 352, 383, Uint,
            "Thread Group ID Starting/Resume Z";
        thread_group_id_z_dimension: u32 = 384, 415, Uint, "Thread Group ID Z Dimension";
        right_execution_mask: u32 = 416, 447, Uint, "Right Execution Mask";
        bottom_execution_mask: u32 = 448, 479, Uint, "Bottom Execution Mask";
    }
}

packet! {
    /// MEDIA_STATE_FLUSH: waits for the media pipe to finish.
    MediaStateFlush = "MEDIA_STATE_FLUSH", dwords 2, bias 2,
    opcode [(29, 31, 3), (27, 28, 2), (24, 26, 0), (16, 23, 4)], length Some((0, 15, 0));
    {
        interface_descriptor_offset: u8 = 32, 37, Uint, "Interface Descriptor Offset";
        watermark_required: bool = 38, 38, Uint, "Watermark Required";
        flush_to_go: bool = 39, 39, Uint, "Flush to GO";
    }
}

/// PIPE_CONTROL Post Sync Operation values.
pub const POST_SYNC_NONE: u8 = 0;
pub const POST_SYNC_WRITE_IMMEDIATE: u8 = 1;
pub const POST_SYNC_WRITE_PS_DEPTH_COUNT: u8 = 2;
pub const POST_SYNC_WRITE_TIMESTAMP: u8 = 3;

packet! {
    /// PIPE_CONTROL: flushes, stalls and the post-sync write.
    PipeControl = "PIPE_CONTROL", dwords 6, bias 2,
    opcode [(29, 31, 3), (27, 28, 3), (24, 26, 2), (16, 23, 0)], length Some((0, 7, 4));
    {
        depth_cache_flush_enable: bool = 32, 32, Uint, "Depth Cache Flush Enable";
        stall_at_pixel_scoreboard: bool = 33, 33, Uint, "Stall At Pixel Scoreboard";
        state_cache_invalidation_enable: bool = 34, 34, Uint, "State Cache Invalidation Enable";
        constant_cache_invalidation_enable: bool = 35, 35, Uint,
            "Constant Cache Invalidation Enable";
        vf_cache_invalidation_enable: bool = 36, 36, Uint, "VF Cache Invalidation Enable";
        dc_flush_enable: bool = 37, 37, Uint, "DC Flush Enable";
        pipe_control_flush_enable: bool = 39, 39, Uint, "Pipe Control Flush Enable";
        notify_enable: bool = 40, 40, Uint, "Notify Enable";
        indirect_state_pointers_disable: bool = 41, 41, Uint, "Indirect State Pointers Disable";
        texture_cache_invalidation_enable: bool = 42, 42, Uint,
            "Texture Cache Invalidation Enable";
        instruction_cache_invalidate_enable: bool = 43, 43, Uint,
            "Instruction Cache Invalidate Enable";
        render_target_cache_flush_enable: bool = 44, 44, Uint,
            "Render Target Cache Flush Enable";
        depth_stall_enable: bool = 45, 45, Uint, "Depth Stall Enable";
        post_sync_operation: u8 = 46, 47, Uint, "Post Sync Operation";
        generic_media_state_clear: bool = 48, 48, Uint, "Generic Media State Clear";
        tlb_invalidate: bool = 50, 50, Uint, "TLB Invalidate";
        global_snapshot_count_reset: bool = 51, 51, Uint, "Global Snapshot Count Reset";
        command_streamer_stall_enable: bool = 52, 52, Uint, "Command Streamer Stall Enable";
        store_data_index: bool = 53, 53, Uint, "Store Data Index";
        lri_post_sync_operation: bool = 55, 55, Uint, "LRI Post Sync Operation";
        destination_address_type: bool = 56, 56, Uint, "Destination Address Type";
        flush_llc: bool = 58, 58, Uint, "Flush LLC";
        address: u64 = 66, 111, Address, "Address";
        immediate_data: u64 = 128, 191, Uint, "Immediate Data";
    }
}

// ------------------------------------------------------------------ surface state

/// RENDER_SURFACE_STATE Surface Type values.
pub const SURFTYPE_1D: u8 = 0;
pub const SURFTYPE_2D: u8 = 1;
pub const SURFTYPE_3D: u8 = 2;
pub const SURFTYPE_CUBE: u8 = 3;
pub const SURFTYPE_BUFFER: u8 = 4;
pub const SURFTYPE_NULL: u8 = 7;
/// Surface formats used for buffers.
pub const SURFACE_FORMAT_R32_UINT: u16 = 0x0d7;
pub const SURFACE_FORMAT_RAW: u16 = 0x1ff;

packet! {
    /// RENDER_SURFACE_STATE (16 dwords). For SURFTYPE_BUFFER, the entry
    /// count minus one is split over Width [6:0], Height [20:7], Depth
    /// [31:21], and Surface Pitch is the entry size minus one.
    RenderSurfaceState = "RENDER_SURFACE_STATE", dwords 16, bias 0,
    opcode [], length None;
    {
        media_boundary_pixel_mode: u8 = 6, 7, Uint, "Media Boundary Pixel Mode";
        render_cache_read_write_mode: u8 = 8, 8, Uint, "Render Cache Read Write Mode";
        sampler_l2_bypass_mode_disable: bool = 9, 9, Uint, "Sampler L2 Bypass Mode Disable";
        vertical_line_stride_offset: u8 = 10, 10, Uint, "Vertical Line Stride Offset";
        vertical_line_stride: u8 = 11, 11, Uint, "Vertical Line Stride";
        tile_mode: u8 = 12, 13, Uint, "Tile Mode";
        surface_horizontal_alignment: u8 = 14, 15, Uint, "Surface Horizontal Alignment";
        surface_vertical_alignment: u8 = 16, 17, Uint, "Surface Vertical Alignment";
        surface_format: u16 = 18, 27, Uint, "Surface Format";
        surface_array: bool = 28, 28, Uint, "Surface Array";
        surface_type: u8 = 29, 31, Uint, "Surface Type";
        surface_qpitch: u16 = 32, 46, Uint, "Surface QPitch";
        base_mip_level: u8 = 51, 55, Uint, "Base Mip Level";
        mocs: u8 = 56, 62, Uint, "MOCS";
        width: u16 = 64, 77, Uint, "Width";
        height: u16 = 80, 93, Uint, "Height";
        surface_pitch: u32 = 96, 113, Uint, "Surface Pitch";
        depth: u16 = 117, 127, Uint, "Depth";
        number_of_multisamples: u8 = 131, 133, Uint, "Number of Multisamples";
        render_target_view_extent: u16 = 135, 145, Uint, "Render Target View Extent";
        minimum_array_element: u16 = 146, 156, Uint, "Minimum Array Element";
        mip_count_lod: u8 = 160, 163, Uint, "MIP Count / LOD";
        surface_min_lod: u8 = 164, 167, Uint, "Surface Min LOD";
        mip_tail_start_lod: u8 = 168, 171, Uint, "Mip Tail Start LOD";
        coherency_type: u8 = 174, 174, Uint, "Coherency Type";
        tiled_resource_mode: u8 = 178, 179, Uint, "Tiled Resource Mode";
        y_offset: u8 = 181, 183, Uint, "Y Offset";
        x_offset: u8 = 185, 191, Uint, "X Offset";
        shader_channel_select_alpha: u8 = 240, 242, Uint, "Shader Channel Select Alpha";
        shader_channel_select_blue: u8 = 243, 245, Uint, "Shader Channel Select Blue";
        shader_channel_select_green: u8 = 246, 248, Uint, "Shader Channel Select Green";
        shader_channel_select_red: u8 = 249, 251, Uint, "Shader Channel Select Red";
        memory_compression_enable: bool = 254, 254, Uint, "Memory Compression Enable";
        memory_compression_mode: u8 = 255, 255, Uint, "Memory Compression Mode";
        surface_base_address: u64 = 256, 319, Address, "Surface Base Address";
    }
}

impl RenderSurfaceState {
    /// A buffer surface of `size` bytes made of `stride`-byte entries
    /// (stride 1 with SURFACE_FORMAT_RAW for byte-addressed buffers).
    /// None if the entry count does not fit the 32-bit split.
    pub fn buffer(base: u64, size: u64, stride: u32, format: u16, mocs: u8) -> Option<Self> {
        if stride == 0 || size < u64::from(stride) {
            return None;
        }
        let n = size / u64::from(stride) - 1;
        if n >> 32 != 0 {
            return None;
        }
        Some(Self {
            surface_type: SURFTYPE_BUFFER,
            surface_format: format,
            width: (n & 0x7f) as u16,
            height: ((n >> 7) & 0x3fff) as u16,
            depth: ((n >> 21) & 0x7ff) as u16,
            surface_pitch: stride - 1,
            mocs,
            surface_base_address: base,
            ..Default::default()
        })
    }

    /// A null surface: reads return zero, writes are dropped (binding-table holes).
    pub fn null() -> Self {
        Self {
            surface_type: SURFTYPE_NULL,
            ..Default::default()
        }
    }

    /// For SURFTYPE_BUFFER: the number of entries the Width/Height/Depth split encodes.
    pub fn buffer_entries(&self) -> u64 {
        (u64::from(self.width) | u64::from(self.height) << 7 | u64::from(self.depth) << 21) + 1
    }

    /// For SURFTYPE_BUFFER: the size in bytes (entries × (Surface Pitch + 1)).
    pub fn buffer_size(&self) -> u64 {
        self.buffer_entries() * (u64::from(self.surface_pitch) + 1)
    }
}

/// RENDER_SURFACE_STATE Tile Mode values.
pub const TILE_LINEAR: u8 = 0;
pub const TILE_WMAJOR: u8 = 1;
pub const TILE_XMAJOR: u8 = 2;
pub const TILE_YMAJOR: u8 = 3;

// ------------------------------------------------------------------ sampler state

/// SAMPLER_STATE Min/Mag Mode Filter values (MAPFILTER_*).
pub const MAPFILTER_NEAREST: u8 = 0;
pub const MAPFILTER_LINEAR: u8 = 1;
/// Texture Coordinate Mode values (TCM_*) of the TCX/TCY/TCZ Address Control Modes.
pub const TCM_WRAP: u8 = 0;
pub const TCM_MIRROR: u8 = 1;
pub const TCM_CLAMP: u8 = 2;
pub const TCM_CUBE: u8 = 3;
pub const TCM_CLAMP_BORDER: u8 = 4;
pub const TCM_MIRROR_ONCE: u8 = 5;
pub const TCM_HALF_BORDER: u8 = 6;

packet! {
    /// SAMPLER_STATE (4 dwords): one entry of the array at Dynamic State Base Address +
    /// the interface descriptor's Sampler State Pointer (16 bytes each).
    SamplerState = "SAMPLER_STATE", dwords 4, bias 0,
    opcode [], length None;
    {
        min_mode_filter: u8 = 14, 16, Uint, "Min Mode Filter";
        mag_mode_filter: u8 = 17, 19, Uint, "Mag Mode Filter";
        mip_mode_filter: u8 = 20, 21, Uint, "Mip Mode Filter";
        lod_preclamp_mode: u8 = 27, 28, Uint, "LOD PreClamp Mode";
        texture_border_color_mode: u8 = 29, 29, Uint, "Texture Border Color Mode";
        sampler_disable: bool = 31, 31, Uint, "Sampler Disable";
        max_lod: u16 = 40, 51, Uint, "Max LOD";
        min_lod: u16 = 52, 63, Uint, "Min LOD";
        /// SAMPLER_BORDER_COLOR_STATE, relative to Dynamic State Base Address, 64-byte
        /// aligned.
        border_color_pointer: u32 = 70, 87, Address, "Border Color Pointer";
        tcz_address_control_mode: u8 = 96, 98, Uint, "TCZ Address Control Mode";
        tcy_address_control_mode: u8 = 99, 101, Uint, "TCY Address Control Mode";
        tcx_address_control_mode: u8 = 102, 104, Uint, "TCX Address Control Mode";
        non_normalized_coordinate_enable: bool = 106, 106, Uint,
            "Non-normalized Coordinate Enable";
        r_address_min_filter_rounding_enable: bool = 109, 109, Uint,
            "R Address Min Filter Rounding Enable";
        r_address_mag_filter_rounding_enable: bool = 110, 110, Uint,
            "R Address Mag Filter Rounding Enable";
        v_address_min_filter_rounding_enable: bool = 111, 111, Uint,
            "V Address Min Filter Rounding Enable";
        v_address_mag_filter_rounding_enable: bool = 112, 112, Uint,
            "V Address Mag Filter Rounding Enable";
        u_address_min_filter_rounding_enable: bool = 113, 113, Uint,
            "U Address Min Filter Rounding Enable";
        u_address_mag_filter_rounding_enable: bool = 114, 114, Uint,
            "U Address Mag Filter Rounding Enable";
    }
}

packet! {
    /// SAMPLER_BORDER_COLOR_STATE: the border colour of CLAMP_BORDER addressing, four
    /// dwords read as floats or as 32-bit integers by the surface format's type.
    SamplerBorderColorState = "SAMPLER_BORDER_COLOR_STATE", dwords 4, bias 0,
    opcode [], length None;
    {
        border_color_red: u32 = 0, 31, Uint, "Border Color 32bit Red";
        border_color_green: u32 = 32, 63, Uint, "Border Color 32bit Green";
        border_color_blue: u32 = 64, 95, Uint, "Border Color 32bit Blue";
        border_color_alpha: u32 = 96, 127, Uint, "Border Color 32bit Alpha";
    }
}

packet! {
    /// BINDING_TABLE_STATE: one binding-table entry.
    BindingTableState = "BINDING_TABLE_STATE", dwords 1, bias 0,
    opcode [], length None;
    {
        /// Relative to Surface State Base Address, 64-byte aligned.
        surface_state_pointer: u32 = 6, 31, Address, "Surface State Pointer";
    }
}
