! gf.f90 — the grid misuses of g.c through the Fortran module, each with
! ierr (errors returned, MDL_ERRORS=return,print): ierr must hold the C
! call's code, and the lines printed are lines g.c printed (run with wf.f90
! as g.c runs with w.c).  Not covered: g.c's NULL source of
! MDL_Get_Neighbors (a Fortran argument cannot be NULL).
program gf
  use g_mdl
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  type(g), pointer :: t => null()
  integer(c_int) :: me = -1, code, r, src, dst, c(0:1)
  integer(c_int) :: dims0(0:1) = [0, 0], d1(0:1) = [1, 0], d3(0:1) = [3, 0], &
      dn(0:1) = [-1, 0], dims(0:1) = [0, 0]
  integer(c_int), parameter :: outside(0:1) = [5, 0]
  logical :: bad = .false.

  ! through a pointer not associated yet: before MDL_Init
  call MDL_Grid_Create(t, dims0, ierr=code)
  call want(code, MDL_ERR_STATE, "MDL_Grid_Create before MDL_Init")
  call MDL_SendTo_g_x(t, ierr=code)
  call want(code, MDL_ERR_STATE, "neighbour send before MDL_Init")
  call MDL_Init(t)
  me = MDL_MyRank(t)
  call MDL_Grid_Mycoords(t, c, ierr=code)
  call want(code, MDL_ERR_GRID, "coordinates before MDL_Grid_Create")
  call MDL_SendTo_g_x(t, ierr=code)
  call want(code, MDL_ERR_GRID, "neighbour send before MDL_Grid_Create")
  call MDL_RecvFrom_g_x(t, ierr=code)
  call want(code, MDL_ERR_GRID, "neighbour receive before MDL_Grid_Create")
  call MDL_Grid_Screate(t, d1, ierr=code)
  call want(code, MDL_ERR_GRID, "Screate with a fixed dimension")
  call MDL_Grid_Create(t, d3, ierr=code)
  call want(code, MDL_ERR_GRID, "3 x ? for 2 instances")
  call MDL_Grid_Create(t, dn, ierr=code)
  call want(code, MDL_ERR_GRID, "negative dimension")
  call MDL_Grid_Create(t, dims, ierr=code)
  call want(code, MDL_SUCCESS, "MDL_Grid_Create")
  call MDL_Grid_Create(t, dims, ierr=code)
  call want(code, MDL_ERR_GRID, "MDL_Grid_Create twice")
  ! a 2 x 1 grid: North and South are MDL_PROC_NULL on both instances, and
  ! the calls toward them check their sections all the same; the bounds in
  ! the spec's order, as in C: M[3][4] is t%M(0:3, 0:2), so lo0..hi0 bound
  ! its rows (Fortran's second index)
  call MDL_SendTo_g_edge(t, 0, 2, 0, 3, ierr=code)
  call want(code, MDL_SUCCESS, "whole M toward MDL_PROC_NULL")
  call MDL_RecvFrom_g_edge(t, 1, 1, 0, -1, ierr=code)
  call want(code, MDL_SUCCESS, "empty row from MDL_PROC_NULL")
  call MDL_SendTo_g_edge(t, 0, 3, 0, 3, ierr=code)
  call want(code, MDL_ERR_BOUNDS, "row 3 of 3 toward MDL_PROC_NULL")
  call MDL_RecvFrom_g_edge(t, 0, 2, 1, 4, ierr=code)
  call want(code, MDL_ERR_BOUNDS, "column 4 of 4 from MDL_PROC_NULL")
  call MDL_Grid_Coords(t, 7, c, ierr=code)
  call want(code, MDL_ERR_RANK, "coordinates of instance 7")
  call MDL_Grid_Rank(t, outside, r, ierr=code)
  call want(code, MDL_ERR_ARG, "coordinates outside the grid")
  call MDL_Get_Neighbors(t, 5, 1, src, dst, ierr=code)
  call want(code, MDL_ERR_ARG, "direction 5 of 2")
  call MDL_End(t, ierr=code)
  call want(code, MDL_SUCCESS, "MDL_End")
  if (bad) error stop 1
  print '(a, i0, a)', "gf ", me, ": OK"

contains

  subroutine want(got, expected, what)
    integer(c_int), intent(in) :: got, expected
    character(len=*), intent(in) :: what
    if (got /= expected) then
      print '(a, i0, 3a, i0, a, i0)', "gf ", me, ": ", what, " returned ", got, &
        ", expected ", expected
      bad = .true.
    end if
  end subroutine want
end program gf
