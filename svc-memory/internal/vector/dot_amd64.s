#include "textflag.h"

// func dotAVX2(a, b *float32, n int) float32
// Four 8-lane FMA accumulators over 32 floats per step, then 8 at a time,
// then a scalar tail.
TEXT ·dotAVX2(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

loop32:
	CMPQ CX, $32
	JL   loop8
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JMP  loop32

loop8:
	CMPQ CX, $8
	JL   reduce
	VMOVUPS (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  loop8

reduce:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0

tail:
	CMPQ CX, $0
	JE   done
	VMOVSS (SI), X1
	VFMADD231SS (DI), X1, X0
	ADDQ $4, SI
	ADDQ $4, DI
	DECQ CX
	JMP  tail

done:
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dotI8VNNI(a, b *int8, n int) int32
// n is a multiple of 64. VPDPBUSD multiplies unsigned by signed bytes, so a
// is made unsigned by flipping its sign bits (a+128); the caller subtracts
// 128*sum(b).
TEXT ·dotI8VNNI(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	MOVL $0x80808080, AX
	VPBROADCASTD AX, Z7

vnni128:
	CMPQ CX, $128
	JL   vnni64
	VPXORD (SI), Z7, Z2
	VPXORD 64(SI), Z7, Z3
	VPDPBUSD (DI), Z2, Z0
	VPDPBUSD 64(DI), Z3, Z1
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $128, CX
	JMP  vnni128

vnni64:
	CMPQ CX, $64
	JL   vnnireduce
	VPXORD (SI), Z7, Z2
	VPDPBUSD (DI), Z2, Z0

vnnireduce:
	VPADDD Z1, Z0, Z0
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VPADDD X1, X0, X0
	VMOVD X0, AX
	VZEROUPPER
	MOVL AX, ret+24(FP)
	RET

// func dotI8AVX2(a, b *int8, n int) int32
// n is a multiple of 32: bytes are sign-extended to words and multiplied
// pairwise into dwords (exact, no saturation).
TEXT ·dotI8AVX2(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1

i8loop:
	CMPQ CX, $32
	JL   i8reduce
	VPMOVSXBW (SI), Y2
	VPMOVSXBW (DI), Y3
	VPMADDWD Y3, Y2, Y2
	VPADDD Y2, Y0, Y0
	VPMOVSXBW 16(SI), Y4
	VPMOVSXBW 16(DI), Y5
	VPMADDWD Y5, Y4, Y4
	VPADDD Y4, Y1, Y1
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $32, CX
	JMP  i8loop

i8reduce:
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VPADDD X1, X0, X0
	VMOVD X0, AX
	VZEROUPPER
	MOVL AX, ret+24(FP)
	RET

// func dotsI8VNNI(q *int8, vecs **int8, n int, stride int, out *int32)
// out[i] = sum((q^0x80) * vecs[i]) over stride bytes (a multiple of 64),
// for i < n, prefetching the first 256 bytes of vector i+1 while vector i
// is scored (prefetching four vectors ahead measured no better).
TEXT ·dotsI8VNNI(SB), NOSPLIT, $0-40
	MOVQ q+0(FP), SI
	MOVQ vecs+8(FP), BX
	MOVQ n+16(FP), CX
	MOVQ stride+24(FP), DX
	MOVQ out+32(FP), R8
	TESTQ CX, CX
	JZ    batchdone
	MOVL $0x80808080, AX
	VPBROADCASTD AX, Z7

batchouter:
	MOVQ (BX), DI
	CMPQ CX, $1
	JE   batchcompute
	MOVQ 8(BX), R9
	PREFETCHT0 (R9)
	PREFETCHT0 64(R9)
	PREFETCHT0 128(R9)
	PREFETCHT0 192(R9)

batchcompute:
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	MOVQ SI, R10
	MOVQ DX, R11

batch128:
	CMPQ R11, $128
	JL   batch64
	VPXORD (R10), Z7, Z2
	VPXORD 64(R10), Z7, Z3
	VPDPBUSD (DI), Z2, Z0
	VPDPBUSD 64(DI), Z3, Z1
	ADDQ $128, R10
	ADDQ $128, DI
	SUBQ $128, R11
	JMP  batch128

batch64:
	CMPQ R11, $64
	JL   batchreduce
	VPXORD (R10), Z7, Z2
	VPDPBUSD (DI), Z2, Z0

batchreduce:
	VPADDD Z1, Z0, Z0
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VPADDD X1, X0, X0
	VMOVD X0, AX
	MOVL AX, (R8)
	ADDQ $4, R8
	ADDQ $8, BX
	DECQ CX
	JNZ  batchouter

batchdone:
	VZEROUPPER
	RET

// func dotHalfAVX512(q *float32, v *uint16, n int) float32
// n is a multiple of 16: sixteen halves are widened to floats (VCVTPH2PS)
// and multiplied into four accumulators, 64 per step when there are.
TEXT ·dotHalfAVX512(SB), NOSPLIT, $0-28
	MOVQ q+0(FP), SI
	MOVQ v+8(FP), DI
	MOVQ n+16(FP), CX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3

half64:
	CMPQ CX, $64
	JL   half16
	VCVTPH2PS (DI), Z4
	VCVTPH2PS 32(DI), Z5
	VCVTPH2PS 64(DI), Z6
	VCVTPH2PS 96(DI), Z7
	VFMADD231PS (SI), Z4, Z0
	VFMADD231PS 64(SI), Z5, Z1
	VFMADD231PS 128(SI), Z6, Z2
	VFMADD231PS 192(SI), Z7, Z3
	ADDQ $128, DI
	ADDQ $256, SI
	SUBQ $64, CX
	JMP  half64

half16:
	CMPQ CX, $16
	JL   halfreduce
	VCVTPH2PS (DI), Z4
	VFMADD231PS (SI), Z4, Z0
	ADDQ $32, DI
	ADDQ $64, SI
	SUBQ $16, CX
	JMP  half16

halfreduce:
	VADDPS Z1, Z0, Z0
	VADDPS Z3, Z2, Z2
	VADDPS Z2, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dotHalfAVX2(q *float32, v *uint16, n int) float32
// n is a multiple of 8 (F16C widening, FMA).
TEXT ·dotHalfAVX2(SB), NOSPLIT, $0-28
	MOVQ q+0(FP), SI
	MOVQ v+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1

h2loop16:
	CMPQ CX, $16
	JL   h2loop8
	VCVTPH2PS (DI), Y4
	VCVTPH2PS 16(DI), Y5
	VFMADD231PS (SI), Y4, Y0
	VFMADD231PS 32(SI), Y5, Y1
	ADDQ $32, DI
	ADDQ $64, SI
	SUBQ $16, CX
	JMP  h2loop16

h2loop8:
	CMPQ CX, $8
	JL   h2reduce
	VCVTPH2PS (DI), Y4
	VFMADD231PS (SI), Y4, Y0
	ADDQ $16, DI
	ADDQ $32, SI
	SUBQ $8, CX
	JMP  h2loop8

h2reduce:
	VADDPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dotHalvesAVX512(a, b *uint16, n int) float32
// n is a multiple of 32: both operands are widened (VCVTPH2PS), two
// accumulators.
TEXT ·dotHalvesAVX512(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1

hh32:
	CMPQ CX, $32
	JL   hhreduce
	VCVTPH2PS (SI), Z2
	VCVTPH2PS 32(SI), Z3
	VCVTPH2PS (DI), Z4
	VCVTPH2PS 32(DI), Z5
	VFMADD231PS Z4, Z2, Z0
	VFMADD231PS Z5, Z3, Z1
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $32, CX
	JMP  hh32

hhreduce:
	VADDPS Z1, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET
