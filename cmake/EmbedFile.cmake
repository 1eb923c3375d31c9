# cmake -DINPUT=<file> -DOUTPUT=<file.inc> -DNAME=<identifier> -P EmbedFile.cmake
# Writes the bytes of INPUT as a C array, `static const unsigned char NAME[]`, for a source file to
# #include (the scratch pool's object and header that attn-compile writes into attn_runtime.a; the
# AVX-512 target math's bitcode).
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}.tmp" "// Generated from ${INPUT} by cmake/EmbedFile.cmake: do not edit.\nstatic const unsigned char ${NAME}[] = {\n${bytes}};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
