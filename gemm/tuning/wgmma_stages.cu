/* Tuning harness, not part of the library: variant 23's two tile widths
 * (128 x 128 and 128 x 64, both called directly, whatever the launcher's
 * rule would pick) against cuBLAS BF16 on a list of shapes, C = A B with
 * dense row-major operands, cold L2 (a 256 MB memset before each run),
 * medians of 20 runs after 5 warm-ups; the last column compares C with
 * cuBLAS's. Build one binary per ring depth:
 *   nvcc -std=c++17 -gencode arch=compute_90a,code=sm_90a -DGKS4_STAGES_NARROW=8 \
 *        -DGKS4_STAGES_WIDE=4 -o wgmma_stages gemm/tuning/wgmma_stages.cu -lcublas -lcuda
 * (tiles-h100/wgmma_stages.txt: the output of three such builds). */
#include "../kernels/small_04_wgmma_tiles.cu"
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include <algorithm>
static float med(std::vector<float> v){ std::sort(v.begin(),v.end()); return v[v.size()/2]; }
int main(){
  const int shapes[][3]={{256,256,256},{512,512,512},{768,768,768},{1024,1024,1024},{1536,1536,1536},{2048,2048,2048},
    {1024,256,1024},{384,384,4096},{100,3000,5000},{2464,152,64},{3304,5715,122},{5589,2237,838},{4096,4096,4096},{991,136,3663}};
  size_t maxe = (size_t)6000*6000;
  __nv_bfloat16 *a,*b,*c,*c2; char* flush;
  cudaMalloc(&a,maxe*2); cudaMalloc(&b,maxe*2); cudaMalloc(&c,maxe*2); cudaMalloc(&c2,maxe*2); cudaMalloc(&flush,256<<20);
  std::vector<__nv_bfloat16> h(maxe); srand(1); for(size_t i=0;i<maxe;i++) h[i]=__float2bfloat16((rand()%2001-1000)/1000.f);
  cudaMemcpy(a,h.data(),maxe*2,cudaMemcpyHostToDevice); cudaMemcpy(b,h.data(),maxe*2,cudaMemcpyHostToDevice);
  cublasHandle_t hd; cublasCreate(&hd);
  cudaEvent_t e0,e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  printf("stages narrow %d wide %d\n", GKS4_STAGES_NARROW, GKS4_STAGES_WIDE); printf("%-16s %9s %9s %9s %7s %7s  %s\n","shape","cublas_us","w128_us","w64_us","r128","r64","maxdiff128/64");
  for(auto& s: shapes){
    int m=s[0],n=s[1],k=s[2];
    float one=1,zero=0;
    auto cub=[&](){ cublasGemmEx(hd,CUBLAS_OP_N,CUBLAS_OP_N,n,m,k,&one,b,CUDA_R_16BF,n,a,CUDA_R_16BF,k,&zero,c2,CUDA_R_16BF,n,CUBLAS_COMPUTE_32F,CUBLAS_GEMM_DEFAULT);};
    auto mk=[&](int w){ return [=](){
      Params prm; memset(&prm,0,sizeof(prm)); prm.lda=k; prm.ldb=n; prm.ldc=n; prm.c=c; prm.m=m; prm.n=n; prm.k=k;
      prm.tiles_m=(m+127)/128; prm.alpha=1; prm.beta=0; prm.c_vec=(n%2==0);
      if(w==128){ prm.tiles_n=(n+127)/128; run<128,false,false,false,false>(prm,a,b,1,(size_t)prm.tiles_m*prm.tiles_n,0);}
      else { prm.tiles_n=(n+63)/64; run<64,false,false,false,false>(prm,a,b,1,(size_t)prm.tiles_m*prm.tiles_n,0);} };};
    auto timeit=[&](auto f){ std::vector<float> t; for(int r=0;r<25;r++){ cudaMemsetAsync(flush,r,256<<20); cudaEventRecord(e0); f(); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms,e0,e1); if(r>=5) t.push_back(ms*1000);} return med(t);};
    float tc=timeit(cub);
    std::vector<__nv_bfloat16> r1((size_t)m*n), r2((size_t)m*n);
    cudaMemcpy(r2.data(),c2,(size_t)m*n*2,cudaMemcpyDeviceToHost);
    float t128=timeit(mk(128)); cudaMemcpy(r1.data(),c,(size_t)m*n*2,cudaMemcpyDeviceToHost);
    double d128=0; for(size_t i=0;i<(size_t)m*n;i++) d128=std::max(d128,(double)fabsf(__bfloat162float(r1[i])-__bfloat162float(r2[i])));
    cudaMemset(c,0,(size_t)m*n*2);
    float t64=timeit(mk(64)); cudaMemcpy(r1.data(),c,(size_t)m*n*2,cudaMemcpyDeviceToHost);
    double d64=0; for(size_t i=0;i<(size_t)m*n;i++) d64=std::max(d64,(double)fabsf(__bfloat162float(r1[i])-__bfloat162float(r2[i])));
    char nm[64]; snprintf(nm,64,"%dx%dx%d",m,n,k);
    printf("%-16s %9.2f %9.2f %9.2f %7.3f %7.3f  %.3g/%.3g %s\n",nm,tc,t128,t64,tc/t128,tc/t64,d128,d64,cudaGetErrorString(cudaGetLastError()));
  }
}
