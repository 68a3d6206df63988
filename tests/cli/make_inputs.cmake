# Writes the input files of the CLI tests of the readers (issue 17) into DIR: DIMACS files (good and bad), a
# Matrix Market file named .txt, and gzip copies (whole and truncated). Called as
#   cmake -DDATA=tests/data -DDIR=out/dir -P make_inputs.cmake
cmake_minimum_required(VERSION 3.28)
file(MAKE_DIRECTORY "${DIR}")
file(WRITE "${DIR}/tiny.gr" "c a 4-vertex road\np sp 4 4\na 1 2 5\na 2 3 1.5\na 3 1 2\na 4 1 2\n")
file(WRITE "${DIR}/arc_before_p.gr" "c\na 1 2 5\np sp 4 1\n")
file(WRITE "${DIR}/bad_p.gr" "p max 4 1\na 1 2 5\n")
file(WRITE "${DIR}/id_zero.gr" "p sp 4 1\na 0 2 5\n")
file(WRITE "${DIR}/id_above_n.gr" "p sp 4 1\na 1 5 5\n")
file(WRITE "${DIR}/short.gr" "p sp 4 3\na 1 2 5\n")
file(WRITE "${DIR}/tiny.wel" "# GAP weighted edge list, 0-based\n0 1 5\n1 2 1.5\n2 0 2\n3 0 2\n")
file(WRITE "${DIR}/empty.mtx" "%%MatrixMarket matrix coordinate pattern general\n0 0 0\n")
file(WRITE "${DIR}/not_a_cache.bgcsr" "BGCSR, but nothing of a graph cache after it\n")
file(COPY_FILE "${DATA}/karate.mtx" "${DIR}/karate.txt")
file(COPY_FILE "${DATA}/karate.mtx" "${DIR}/karate.mtx")
file(ARCHIVE_CREATE OUTPUT "${DIR}/karate.mtx.gz" PATHS "${DIR}/karate.mtx" FORMAT raw COMPRESSION GZip)
file(COPY_FILE "${DIR}/karate.mtx.gz" "${DIR}/karate-gzip-without-suffix")
file(ARCHIVE_CREATE OUTPUT "${DIR}/tiny.gr.gz" PATHS "${DIR}/tiny.gr" FORMAT raw COMPRESSION GZip)
# The first 100 bytes of the compressed karate graph: a gzip stream that ends too early.
execute_process(COMMAND head -c 100 "${DIR}/karate.mtx.gz" OUTPUT_FILE "${DIR}/truncated.mtx.gz" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cannot write ${DIR}/truncated.mtx.gz")
endif()
